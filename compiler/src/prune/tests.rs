//! Unit tests of the pruning documents, the build-time graph, the fallback order and the warnings.

use super::cost::{cost, full_block_cost, SEPARATOR};
use super::facts::*;
use super::*;
use crate::ir::{Field, Prune, Settings, Type};

fn table(name: &str, kind: TableKind, fields: Vec<Field>) -> Table {
    Table {
        name: name.into(),
        rust_name: name.into(),
        comment: Some(format!("The {name} table.")),
        kind,
        schemaless: false,
        enforced: false,
        id: None,
        permissions: None,
        fields,
        indexes: Vec::new(),
        aka: Vec::new(),
        owner: None,
        view: None,
        renamed_from: None,
    }
}

fn schema() -> Schema {
    let link = Field {
        name: "owner_ref".into(),
        rust_name: "owner_ref".into(),
        ty: Type::Option(Box::new(Type::Record("customer".into()))),
        comment: Some("Who owns it.".into()),
        clauses: Default::default(),
        aka: Vec::new(),
        fields: Vec::new(),
        renamed_from: None,
    };
    let tables = vec![
        table("customer", TableKind::Normal, Vec::new()),
        table("purchase", TableKind::Normal, vec![link]),
        table(
            "placed",
            TableKind::Relation {
                from: vec!["customer".into()],
                to: vec!["purchase".into()],
            },
            Vec::new(),
        ),
        table("hidden", TableKind::Normal, Vec::new()),
    ];
    Schema {
        name: "s".into(),
        rust_name: None,
        analyzers: Vec::new(),
        functions: Vec::new(),
        settings: Settings {
            exposed: vec!["customer".into(), "purchase".into(), "placed".into()],
            prune: Some(Prune {
                always: vec!["customer".into()],
                ..Default::default()
            }),
            ..Default::default()
        },
        tables,
        enums: Vec::new(),
    }
}

#[test]
fn rows_carry_relations_and_text() {
    let docs = table_docs(&schema());
    let names: Vec<_> = docs.iter().map(|d| d.name.as_str()).collect();
    assert_eq!(names, ["customer", "purchase", "placed"]);
    assert_eq!(docs[0].edges, [("placed".into(), "purchase".into())]);
    assert!(docs[0].always && !docs[1].always);
    assert_eq!(docs[1].links, ["customer"]);
    assert_eq!(docs[1].edges, [("placed".into(), "customer".into())]);
    assert_eq!(docs[2].ends, ["customer", "purchase"]);
    assert_eq!(docs[0].neighbors, ["placed", "purchase"]);
    assert_eq!(docs[1].neighbors, ["customer", "placed"]);
    assert_eq!(docs[2].neighbors, ["customer", "purchase"]);
    assert!(docs[1].doc.contains("owner ref: Who owns it."));
    assert!(docs[2].doc.starts_with("placed\nplaced\ncustomer purchase\n"));
    for d in &docs {
        assert_eq!(d.position, names.iter().position(|n| *n == d.name).unwrap());
        assert!(d.tokens > 0);
    }
}

#[test]
fn costs_add_up_to_the_block_and_one_separator_at_most() {
    let s = schema();
    let docs = table_docs(&s);
    let sum: usize = docs.iter().map(|d| d.tokens).sum();
    let block = full_block_cost(&s);
    // The last table's separator is the only slack: one token, or two bytes.
    assert!(sum >= block && sum <= block + cost(SEPARATOR), "{sum} vs {block}");
}

#[test]
fn hidden_fields_do_not_feed_the_document_and_synonyms_do() {
    use crate::ir::{Permission, Permissions};
    let mut s = schema();
    let hidden = Field {
        name: "mobile_phone".into(),
        rust_name: "mobile_phone".into(),
        ty: Type::String,
        comment: Some("Personal mobile number.".into()),
        clauses: crate::ir::FieldClauses {
            permissions: Some(Permissions {
                select: Some(Permission::None),
                ..Default::default()
            }),
            ..Default::default()
        },
        aka: Vec::new(),
        fields: Vec::new(),
        renamed_from: None,
    };
    let shown = Field {
        name: "tier".into(),
        rust_name: "tier".into(),
        ty: Type::String,
        comment: Some("Level.".into()),
        clauses: Default::default(),
        aka: vec!["plan level".into()],
        fields: Vec::new(),
        renamed_from: None,
    };
    s.tables[0].fields = vec![hidden, shown];
    s.tables[0].aka = vec!["patron".into()];
    let docs = table_docs(&s);
    assert!(!docs[0].doc.contains("mobile"), "{}", docs[0].doc);
    assert!(!docs[0].doc.contains("Personal"), "{}", docs[0].doc);
    assert!(docs[0].doc.contains("tier: Level. (plan level)"), "{}", docs[0].doc);
    assert!(docs[0].doc.contains("patron\npatron"), "{}", docs[0].doc);
    // The thesaurus's words for the name, and a customer is someone "who" questions are about.
    assert!(docs[0].doc.contains("client"), "{}", docs[0].doc);
    assert!(docs[0].doc.contains(thesaurus::PERSON_HUB_WORDS));
    assert!(
        !docs[2].doc.contains(thesaurus::PERSON_HUB_WORDS),
        "a relation is no person"
    );
    let plain = table_docs_with(&s, DocOptions::PLAIN);
    assert!(!plain[0].doc.contains("patron") && !plain[0].doc.contains("client"));
    assert!(!plain[0].doc.contains("plan level") && !plain[0].doc.contains("mobile"));
}

#[test]
fn the_graph_fallback_catalog_and_oversized_groups() {
    let s = schema();
    let docs = table_docs(&s);
    let graph = graph_literal(&docs);
    let group = docs[2].tokens + docs[0].tokens + docs[1].tokens;
    let compact_group = docs[2].compact + docs[0].compact + docs[1].compact;
    assert!(docs[2].compact <= docs[2].tokens);
    assert!(
        graph.contains(&format!(
            "\"placed\": {{ t: {}, g: {group}, m: {}, h: {compact_group}, p: 2, e: [\"customer\", \"purchase\"]",
            docs[2].tokens, docs[2].compact
        )),
        "{graph}"
    );
    // One literal per attribute, for the parameters the prompt functions read.
    let parts = graph_parts(&docs);
    let part = |k: &str| parts.iter().find(|(key, _)| *key == k).unwrap().1.clone();
    assert!(part("g").contains(&format!("\"placed\": {group}")), "{}", part("g"));
    assert!(
        part("b").contains("\"placed\": { \"purchase\": [\"placed\"] }")
            || part("b").contains("\"customer\": { \"purchase\": [\"placed\"] }"),
        "{}",
        part("b")
    );
    assert!(
        part("e").contains("\"placed\": [\"customer\", \"purchase\"]"),
        "{}",
        part("e")
    );
    assert!(graph.contains("b: { \"purchase\": [\"placed\"] }"), "{graph}");
    // Always first, then by connections (customer, purchase and placed have two each: prompt order).
    assert_eq!(fallback_order(&s, &docs), ["customer", "purchase", "placed"]);
    assert_eq!(
        catalog_line(&s.tables[2]),
        "placed (customer->placed->purchase): The placed table"
    );
    assert_eq!(
        oversized_groups(&docs, (group - 1) as u32),
        [("placed".to_owned(), group)]
    );
    assert!(oversized_groups(&docs, group as u32).is_empty());
    // The build warns only when pruning is on and the whole block does not fit.
    let mut small = s.clone();
    small.settings.prune.as_mut().unwrap().budget = docs[2].tokens as u32;
    let w = warnings(&small);
    assert!(
        w.iter().any(|m| m.contains("relation `placed` with its end tables")),
        "{w:?}"
    );
    small.settings.prune = None;
    assert!(warnings(&small).is_empty());
}

#[test]
fn embeddings_are_deterministic_unit_vectors() {
    let a = hashed_embedding("Which customers placed the most orders?", 64);
    assert_eq!(a, hashed_embedding("which customer placed most order", 64));
    assert!((a.iter().map(|x| x * x).sum::<f32>() - 1.0).abs() < 1e-5);
    assert!(hashed_embedding("the of", 8).iter().all(|x| *x == 0.0));
}

#[cfg(feature = "codegen")]
#[test]
fn the_schema_search_keeps_the_function_words_its_names_use() {
    let mut s = schema();
    let plain = schema_stop_words(&s);
    assert!(plain.contains(&"the") && plain.contains(&"show"), "{plain:?}");
    // The person-hub words are written into the documents on purpose.
    assert!(!plain.contains(&"who") && !plain.contains(&"whom"), "{plain:?}");
    // A table `show` (a TV schema) and a field `find_by` keep "show", "find" and "by" searchable.
    s.tables.push(table("show", TableKind::Normal, Vec::new()));
    s.settings.exposed.push("show".into());
    s.tables[0].fields.push(Field {
        name: "find_by".into(),
        rust_name: "find_by".into(),
        ty: Type::String,
        comment: None,
        clauses: Default::default(),
        aka: Vec::new(),
        fields: Vec::new(),
        renamed_from: None,
    });
    let named = schema_stop_words(&s);
    assert!(
        !named.contains(&"show") && !named.contains(&"find") && !named.contains(&"by"),
        "{named:?}"
    );
    assert_eq!(plain.len(), named.len() + 3);
    // A hidden table's name is never searched, so it keeps nothing.
    s.tables.push(table("list", TableKind::Normal, Vec::new()));
    assert!(schema_stop_words(&s).contains(&"list"));
}
