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
                    "Jan", "Feb", "Aug", "Sep", "Sept", "Oct", "Nov", "Dec", "ca", "e.g", "i.e", "vs", "Univ"]
        case "ru":
            return ["г", "гг", "проф", "акад", "доц", "др", "им", "ул", "пр", "просп", "пер", "пл", "д", "кв",
                    "корп", "стр", "с", "см", "рис", "табл", "т", "тт", "ок", "св", "тов", "гр", "р", "руб",
                    "коп", "тыс", "млн", "млрд", "т.е", "т.к", "т.д", "т.п", "т.н", "т.ч", "и.о", "н.э",
                    "до н.э", "в т.ч", "и т.д", "и т.п", "ст", "мин", "сек", "ч", "кн", "о", "оз", "р-н",
                    "обл", "респ", "сов", "г-н", "г-жа", "напр", "прим", "ред", "изд", "вып", "гл", "п",
                    "No #NUMERIC_ONLY#", "№ #NUMERIC_ONLY#"]
        case "de":
            return ["z.B", "u.a", "d.h", "v.a", "bzw", "usw", "etc", "ca", "Nr", "Dr", "Prof", "Hr", "Fr", "Str",
                    "vgl", "ggf", "evtl", "sog", "inkl", "zzgl", "u.s.w", "z.T", "o.ä", "s.o", "s.u", "Bd", "Jh"]
        case "fr":
            return ["M", "MM", "Mme", "Mmes", "Mlle", "Mlles", "Dr", "Pr", "Me", "St", "Ste", "av", "bd", "etc",
                    "cf", "p #NUMERIC_ONLY#", "n° #NUMERIC_ONLY#", "no #NUMERIC_ONLY#", "vol", "env", "ex", "c.-à-d",
                    "p.ex", "chap"]
        case "es":
            return ["Sr", "Sra", "Srta", "Sres", "Dr", "Dra", "Lic", "Ing", "Prof", "Ud", "Uds", "Vd", "Vds", "etc",
                    "pág #NUMERIC_ONLY#", "núm #NUMERIC_ONLY#", "n.º #NUMERIC_ONLY#", "aprox", "p.ej", "EE.UU",
                    "a.C", "d.C", "Av", "Avda", "Cía", "S.A", "Dña", "D"]
        default:
            return []
        }
    }
}
