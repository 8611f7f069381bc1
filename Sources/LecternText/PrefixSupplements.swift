// PrefixSupplements.swift: abbreviations Lectern adds to the Moses lists,
// where those fall short (Russian titles and "т. е.", English "Mt.", units).

/// Extra non-breaking prefixes per language, in the Moses line format.
enum PrefixSupplements {
    static func lines(for language: Language) -> [String] {
        switch language.code {
        case "en":
            return ["Mt", "Ft", "Jr", "Sr", "Gen", "Sgt", "Lt", "Col", "Fr", "Hon", "Rev", "Pres", "Gov",
                    "Sen", "Rep", "Prof", "Dr", "Mme", "Mlle", "Messrs", "cf", "viz", "approx", "al",
                    "vol #NUMERIC_ONLY#", "Vol #NUMERIC_ONLY#", "p #NUMERIC_ONLY#", "Fig #NUMERIC_ONLY#",
                    "fig #NUMERIC_ONLY#", "ch #NUMERIC_ONLY#", "Ch #NUMERIC_ONLY#", "no #NUMERIC_ONLY#",
                    "N° #NUMERIC_ONLY#", "Nº #NUMERIC_ONLY#", "Eq #NUMERIC_ONLY#", "Sec #NUMERIC_ONLY#",
                    "Jan", "Feb", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "ca", "e.g", "i.e", "vs", "Univ",
                    "etc #MAY_END#", "Inc #MAY_END#", "Ltd #MAY_END#", "Co #MAY_END#", "Corp #MAY_END#"]
        case "ru":
            return ["г", "гг", "проф", "акад", "доц", "др", "им", "ул", "просп", "пер", "пл", "д", "кв",
                    "корп", "стр", "с", "см", "рис", "табл", "т", "тт", "ок", "св", "тов", "гр", "р", "руб",
                    "коп", "тыс", "млн", "млрд", "т.е", "т.к", "т.н", "т.ч", "и.о", "в т.ч", "ст",
                    "т.д #MAY_END#", "т.п #MAY_END#", "н.э #MAY_END#", "др #MAY_END#", "пр #MAY_END#", "мин", "сек", "ч", "кн", "о", "оз", "р-н",
                    "обл", "респ", "сов", "г-н", "г-жа", "напр", "прим", "ред", "изд", "вып", "гл", "п",
                    "No #NUMERIC_ONLY#", "№ #NUMERIC_ONLY#"]
        case "de":
            return ["z.B", "u.a", "d.h", "v.a", "bzw", "usw #MAY_END#", "etc #MAY_END#", "ca", "Nr", "Dr", "Prof", "Hr", "Fr", "Str",
                    "vgl", "ggf", "evtl", "sog", "inkl", "zzgl", "u.s.w", "z.T", "o.ä", "s.o", "s.u", "Bd", "Jh"]
        case "fr":
            return ["M", "MM", "Mme", "Mmes", "Mlle", "Mlles", "Dr", "Pr", "Me", "St", "Ste", "av", "bd", "etc #MAY_END#",
                    "cf", "p #NUMERIC_ONLY#", "n° #NUMERIC_ONLY#", "no #NUMERIC_ONLY#", "vol", "env", "ex", "c.-à-d",
                    "p.ex", "chap"]
        case "es":
            return ["Sr", "Sra", "Srta", "Sres", "Dr", "Dra", "Lic", "Ing", "Prof", "Ud", "Uds", "Vd", "Vds", "etc #MAY_END#", "EE",
                    "pág #NUMERIC_ONLY#", "núm #NUMERIC_ONLY#", "n.º #NUMERIC_ONLY#", "aprox", "p.ej", "EE.UU",
                    "a.C", "d.C", "Av", "Avda", "Cía", "S.A", "Dña", "D"]
        default:
            return []
        }
    }
}
