//! "Did you mean": the nearest known name by edit distance, case differences costing nothing.
//!
//! One rule for every suggestion surqlc makes: misspelled attributes, settings and `Type::field`
//! references in a schema (`front`), and tables and fields in a generated query (`validate`).

/// Levenshtein distance over chars, with adjacent transpositions counting one (optimal string alignment).
pub fn distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let mut prev2: Vec<usize> = vec![0; b.len() + 1];
    let mut prev: Vec<usize> = (0..=b.len()).collect();
    let mut cur = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        cur[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            cur[j] = (prev[j] + 1).min(cur[j - 1] + 1).min(prev[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                cur[j] = cur[j].min(prev2[j - 2] + 1);
            }
        }
        std::mem::swap(&mut prev2, &mut prev);
        std::mem::swap(&mut prev, &mut cur);
    }
    prev[b.len()]
}

/// The candidate nearest to `name`, if near enough to be a slip: the same name in another case,
/// or at most one edit per three characters (at least one), or a plural/singular form.
pub fn nearest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    let lower = name.to_lowercase();
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for c in candidates {
        if c == name {
            continue;
        }
        let cl = c.to_lowercase();
        let d = if cl == lower {
            0
        } else if cl.trim_end_matches('s') == lower.trim_end_matches('s') {
            1
        } else {
            distance(&lower, &cl)
        };
        if d <= limit && best.is_none_or(|(bd, _)| d < bd) {
            best = Some((d, c));
        }
    }
    best.map(|(_, c)| c)
}

/// The candidate nearest to `name` (see `nearest`), for candidates of any string type.
#[cfg(feature = "front")]
pub fn closest<'a, I, S>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a S>,
    S: AsRef<str> + ?Sized + 'a,
{
    nearest(name, candidates.into_iter().map(|c| c.as_ref()))
}

/// `"; did you mean `x`?"` for the nearest candidate, or nothing.
#[cfg(feature = "front")]
pub fn did_you_mean<'a, I, S>(name: &str, candidates: I) -> String
where
    I: IntoIterator<Item = &'a S>,
    S: AsRef<str> + ?Sized + 'a,
{
    match closest(name, candidates) {
        Some(c) => format!("; did you mean `{c}`?"),
        None => String::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn near_names() {
        assert_eq!(distance("kitten", "sitting"), 3);
        assert_eq!(distance("ab", "ba"), 1);
        assert_eq!(nearest("custmer", ["customer", "product"]), Some("customer"));
        assert_eq!(nearest("Status", ["status"]), Some("status"));
        assert_eq!(nearest("customers", ["customer"]), Some("customer"));
        assert_eq!(nearest("email", ["name", "country", "tier", "joined"]), None);
        assert_eq!(distance("value_hint", "value_hints"), 1);
        assert_eq!(distance("é", "e"), 1);
    }

    #[test]
    fn only_near_names_are_suggested() {
        let attrs = ["rename", "type", "skip"];
        assert_eq!(closest("renam", &attrs), Some("rename"));
        assert_eq!(closest("typ", &attrs), Some("type"));
        assert_eq!(closest("Skip", &attrs), Some("skip"));
        assert_eq!(closest("flatten", &attrs), None);
        assert_eq!(closest("x", &attrs), None);
        assert_eq!(did_you_mean("renme", &attrs), "; did you mean `rename`?");
        assert_eq!(did_you_mean("colour", &attrs), "");
        let owned = vec!["priority".to_owned(), "status".to_owned()];
        assert_eq!(closest("prority", &owned), Some("priority"));
    }
}
