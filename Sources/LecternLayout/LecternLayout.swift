// LecternLayout: see ../shared/ARCHITECTURE.md for what this module owns.
