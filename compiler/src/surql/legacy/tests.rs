//! The 2.x spellings found in text, and the text each respelling gives (the engine runs them in `tests/legacy.rs`).

use super::*;

fn respelled(text: &str) -> String {
    respell(text, &find(text))
}

fn spellings(text: &str) -> Vec<Spelling> {
    find(text).iter().map(|f| f.spelling).collect()
}

#[test]
fn renamed_functions_come_from_the_engines_table_and_the_migration_guide() {
    assert_eq!(renamed("type::thing"), Some("type::record"));
    assert_eq!(renamed("TYPE::THING"), Some("type::record"));
    assert_eq!(renamed("string::is::email"), Some("string::is_email"));
    assert_eq!(renamed("duration::from::days"), Some("duration::from_days"));
    assert_eq!(renamed("time::from::unix"), Some("time::from_unix"));
    assert_eq!(renamed("rand::guid"), Some("rand::id"));
    assert_eq!(renamed("geo::is::valid"), Some("geo::is_valid"));
    assert_eq!(renamed("record::is::edge"), Some("record::is_edge"));
    assert_eq!(renamed("type::record"), None);
    assert!(renames().len() >= 64, "{}", renames().len());
}

#[test]
fn a_renamed_function_is_respelled_where_it_stands() {
    let text = "SELECT * FROM type::thing('customer', 'mei') WHERE string::is::email(name) AND fn::type::thing(1);";
    assert_eq!(
        respelled(text),
        "SELECT * FROM type::record('customer', 'mei') WHERE string::is_email(name) AND fn::type::thing(1);"
    );
    let found = find(text);
    assert_eq!(found[0].written, "type::thing");
    assert_eq!(&text[found[0].start..found[0].end], "type::thing");
    // A method or a 3.x name is left alone.
    assert!(find("SELECT name.is_email() FROM type::record('a', 1)").is_empty());
}

#[test]
fn definitions_take_their_3x_spelling() {
    assert_eq!(
        respelled("DEFINE INDEX i ON post FIELDS body SEARCH ANALYZER en BM25 HIGHLIGHTS DOC_IDS_ORDER 100;"),
        "DEFINE INDEX i ON post FIELDS body FULLTEXT ANALYZER en BM25 HIGHLIGHTS;"
    );
    assert_eq!(
        respelled("DEFINE INDEX v ON doc FIELDS emb MTREE DIMENSION 4 DIST EUCLIDEAN CAPACITY 40;"),
        "DEFINE INDEX v ON doc FIELDS emb HNSW DIMENSION 4 DIST EUCLIDEAN;"
    );
    assert_eq!(
        respelled("DEFINE FIELD settings ON user FLEXIBLE TYPE object DEFAULT {};"),
        "DEFINE FIELD settings ON user TYPE object FLEXIBLE DEFAULT {};"
    );
}

#[test]
fn a_future_in_a_fields_value_is_computed_and_nowhere_else() {
    assert_eq!(
        respelled("DEFINE FIELD age ON person VALUE <future> { time::year(time::now()) - time::year(born) };"),
        "DEFINE FIELD age ON person COMPUTED time::year(time::now()) - time::year(born);"
    );
    assert_eq!(
        respelled("DEFINE FIELD n ON t TYPE int VALUE <future> { LET $a = 1; $a + 1 };"),
        "DEFINE FIELD n ON t TYPE int COMPUTED { LET $a = 1; $a + 1 };"
    );
    // No mechanical spelling: a stored future, a DEFAULT, a nested field, a clause COMPUTED refuses.
    for text in [
        "CREATE person SET seen = <future> { time::now() };",
        "DEFINE FIELD seen ON person DEFAULT <future> { time::now() };",
        "DEFINE FIELD name.full ON person VALUE <future> { name.first + name.last };",
        "DEFINE FIELD seen ON person VALUE <future> { time::now() } READONLY;",
    ] {
        let found = find(text);
        assert_eq!(spellings(text), [Spelling::Future], "{text}");
        assert!(found[0].edits.is_empty(), "{text}: {:?}", found[0].edits);
        assert_eq!(found[0].written, "<future>");
    }
}

#[test]
fn statements_and_operators_of_2x() {
    assert_eq!(
        respelled("$total = 10; RETURN $total;"),
        "LET $total = 10; RETURN $total;"
    );
    assert_eq!(
        respelled("SELECT country, count() AS n FROM customer SPLIT country GROUP BY country;"),
        "SELECT country, count() AS n FROM customer GROUP BY country;"
    );
    assert_eq!(
        respelled("RETURN [\"a\", NONE].map(|$v| $v?.len());"),
        "RETURN [\"a\", NONE].map(|$v| $v.?.len());"
    );
    // A SPLIT without GROUP, `==`, `.?`, `<~` and `??` are 3.x.
    for text in [
        "SELECT * FROM t SPLIT tags ORDER BY x;",
        "IF $a == 1 { RETURN 1 };",
        "RETURN $v.?.len();",
        "SELECT <~comment FROM post;",
        "RETURN $a ?? 1;",
    ] {
        assert!(find(text).is_empty(), "{text}: {:?}", find(text));
    }
    for (text, op) in [
        ("RETURN 'Mario' ~ 'mario';", "~"),
        ("SELECT * FROM t WHERE name !~ 'x';", "!~"),
        ("RETURN tags ?~ 'a';", "?~"),
        ("RETURN tags *~ 'a';", "*~"),
    ] {
        let found = find(text);
        assert_eq!(spellings(text), [Spelling::LikeOperator], "{text}");
        assert_eq!(found[0].written, op);
        assert!(found[0].edits.is_empty());
    }
    assert_eq!(spellings("ANALYZE INDEX body ON post;"), [Spelling::Analyze]);
    assert_eq!(
        respelled("SELECT * FROM person WHERE age > 18 PARALLEL; UPDATE person SET seen = true PARALLEL;"),
        "SELECT * FROM person WHERE age > 18; UPDATE person SET seen = true;"
    );
    // A field named `parallel` is a field.
    assert!(find("SELECT parallel, name FROM t WHERE parallel = 1;").is_empty());
}

#[test]
fn overlapping_edits_keep_the_first() {
    let found = find("SELECT type::thing('a', 1) FROM t;");
    let mut twice = found.clone();
    twice.extend(found);
    assert_eq!(edits_of(&twice).len(), 1);
}
