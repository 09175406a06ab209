//! "Did you mean": the closest known name to a misspelled one, by edit distance.

/// The Levenshtein distance between `a` and `b`, counted in characters.
pub fn edit_distance(a: &str, b: &str) -> usize {
    let b: Vec<char> = b.chars().collect();
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for (i, ca) in a.chars().enumerate() {
        current[0] = i + 1;
        for (j, cb) in b.iter().enumerate() {
            let substitution = previous[j] + usize::from(ca != *cb);
            current[j + 1] = substitution.min(previous[j + 1] + 1).min(current[j] + 1);
        }
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

/// The candidate nearest to `name`, if it is near enough to be a likely typo: at most a third of
/// the name's length away (at least one edit), or the same name in another case. Ties go to the
/// first candidate.
pub fn closest<'a, I, S>(name: &str, candidates: I) -> Option<&'a str>
where
    I: IntoIterator<Item = &'a S>,
    S: AsRef<str> + ?Sized + 'a,
{
    let limit = (name.chars().count() / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates {
        let candidate = candidate.as_ref();
        if candidate == name {
            continue;
        }
        let distance = if candidate.eq_ignore_ascii_case(name) {
            0
        } else {
            edit_distance(&name.to_lowercase(), &candidate.to_lowercase())
        };
        if distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, c)| c)
}

/// `"; did you mean `x`?"` for the closest candidate, or nothing.
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
    fn distances() {
        assert_eq!(edit_distance("renam", "rename"), 1);
        assert_eq!(edit_distance("prority", "priority"), 1);
        assert_eq!(edit_distance("value_hint", "value_hints"), 1);
        assert_eq!(edit_distance("", "abc"), 3);
        assert_eq!(edit_distance("kitten", "sitting"), 3);
        assert_eq!(edit_distance("é", "e"), 1);
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
