//! Every hint for an unsupported field type leads somewhere: undo a fix in `fixtures/escape_hatches.rs`
//! and the error asks for exactly that fix; with every fix in place the schema loads, a row
//! round-trips through the derived types, and the default `types_path` works.

#[path = "fixtures/escape_hatches.rs"]
mod desk;

use desk::{Address, Contact, Priority, Ticket};
use std::collections::{BTreeMap, HashMap};
use surqlc::front::{compile, SourceFile};
use surqlc::runtime::surrealdb;
use surqlc_tests::{block_on, read, root};

fn fixture() -> String {
    read(root().join("tests/fixtures/escape_hatches.rs"))
}

/// The errors of the fixture with `fixed` replaced by `broken` (each must occur once).
fn errors_when(undo: &[(&str, &str)]) -> Vec<String> {
    let mut text = fixture();
    for (fixed, broken) in undo {
        assert_eq!(text.matches(fixed).count(), 1, "{fixed:?} occurs once");
        text = text.replace(fixed, broken);
    }
    let file = SourceFile {
        path: "escape_hatches.rs".into(),
        text,
    };
    match compile(&[file]) {
        Ok(_) => panic!("undoing {undo:?} must be an error"),
        Err(d) => d.0.into_iter().map(|d| d.message).collect(),
    }
}

fn one_error_when(undo: &[(&str, &str)]) -> String {
    let errors = errors_when(undo);
    assert_eq!(errors.len(), 1, "{errors:#?}");
    errors.into_iter().next().unwrap()
}

const FLEXIBLE: &str = "#[surqlc(type = \"object FLEXIBLE\")]";

#[test]
fn the_fixed_schema_compiles() {
    let file = SourceFile {
        path: "escape_hatches.rs".into(),
        text: fixture(),
    };
    let schema = compile(&[file]).expect("every hatch followed");
    let ticket = schema.table("ticket").unwrap();
    let metadata = ticket.fields.iter().find(|f| f.name == "metadata").unwrap();
    match &metadata.ty {
        surqlc::ir::Type::Raw(raw) => {
            assert_eq!(
                (raw.text.as_str(), raw.clauses.as_str()),
                ("object FLEXIBLE", "FLEXIBLE")
            );
        }
        other => panic!("{other:?}"),
    }
}

#[test]
fn a_map_is_told_object_flexible() {
    for field in ["metadata: HashMap<String, String>", "counters: BTreeMap<String, i64>"] {
        let attr = format!("    {FLEXIBLE}\n    pub {field},");
        let message = one_error_when(&[(&attr, &format!("    pub {field},"))]);
        assert!(message.contains(FLEXIBLE), "{message}");
    }
    // A map with keys that are not strings is told to change them too.
    let message = one_error_when(&[(
        "    #[surqlc(type = \"object FLEXIBLE\")]\n    pub counters: BTreeMap<String, i64>,",
        "    pub counters: BTreeMap<u32, i64>,",
    )]);
    assert!(
        message.contains("make the keys `String`") && message.contains(FLEXIBLE),
        "{message}"
    );
}

#[test]
fn a_struct_is_told_to_link_a_table_or_derive_surreal_value() {
    let message = one_error_when(&[
        (
            "    #[surqlc(type = \"object FLEXIBLE\")]\n    pub address: Address,",
            "    pub address: Address,",
        ),
        (
            "#[derive(Debug, Clone, PartialEq, SurrealValue)]\npub struct Address",
            "#[derive(Debug, Clone, PartialEq)]\npub struct Address",
        ),
    ]);
    for words in [
        "`use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on `Address`",
        FLEXIBLE,
        "make it a table and link it (#[derive(Table)] on `Address`, and `Link<Address>` as this field's type)",
    ] {
        assert!(message.contains(words), "{message}\nshould say {words}");
    }
    // The first way, followed: `Agent` is a plain struct until it derives Table and is linked.
    let message = one_error_when(&[
        ("    pub agent: Link<Agent>,", "    pub agent: Agent,"),
        (
            "#[derive(Debug, Clone, PartialEq, Table)]\npub struct Agent",
            "#[derive(Debug, Clone, PartialEq)]\npub struct Agent",
        ),
    ]);
    assert!(
        message.contains("#[derive(Table)] on `Agent`, and `Link<Agent>` as this field's type"),
        "{message}"
    );
}

#[test]
fn an_enum_with_data_is_told_to_derive_surreal_value() {
    let message = one_error_when(&[
        (
            "    #[surqlc(type = \"object FLEXIBLE\")]\n    pub contact: Contact,",
            "    pub contact: Contact,",
        ),
        (
            "#[derive(Debug, Clone, PartialEq, SurrealValue)]\npub enum Contact",
            "#[derive(Debug, Clone, PartialEq)]\npub enum Contact",
        ),
    ]);
    assert!(message.contains("an enum with data"), "{message}");
    assert!(
        message.contains("`use surqlc::runtime::SurrealValue;` and #[derive(SurrealValue)] on `Contact`")
            && message.contains(FLEXIBLE),
        "{message}"
    );
}

#[test]
fn a_unit_enum_is_told_to_derive_literal() {
    let message = one_error_when(&[(
        "#[derive(Debug, Clone, Copy, PartialEq, Literal)]\npub enum Priority",
        "#[derive(Debug, Clone, Copy, PartialEq)]\npub enum Priority",
    )]);
    assert!(message.contains("derive Literal on `Priority`"), "{message}");
}

type Db = surrealdb::Surreal<surrealdb::engine::any::Any>;

async fn loaded() -> Db {
    let db = surrealdb::engine::any::connect("mem://").await.unwrap();
    db.use_ns("desk").use_db("desk").await.unwrap();
    desk::db::apply_schema(&db).await.expect("the schema loads");
    db
}

fn ticket(agent: surqlc::runtime::Link<desk::Agent>, contact: Contact) -> Ticket {
    Ticket {
        subject: "The lamp flickers".into(),
        metadata: HashMap::from([
            ("browser".to_owned(), "firefox".to_owned()),
            ("os".to_owned(), "linux".to_owned()),
        ]),
        counters: BTreeMap::from([("reopened".to_owned(), 2)]),
        address: Address {
            street: "1 Analytical Row".into(),
            city: "London".into(),
        },
        contact,
        agent,
        priority: Priority::High,
    }
}

#[test]
fn following_every_hint_a_row_round_trips() {
    block_on(async {
        let db = loaded().await;
        let grace = desk::Agent::record("grace");
        let _: Option<desk::Agent> = db
            .create(grace.record_id())
            .content(desk::Agent { name: "Grace".into() })
            .await
            .expect("an agent row");
        for (key, contact) in [
            ("t1", Contact::Email("ada@example.com".into())),
            (
                "t2",
                Contact::Phone {
                    number: "+44 20 7946 0000".into(),
                    extension: Some(12),
                },
            ),
            ("t3", Contact::Nowhere),
        ] {
            let row = ticket(grace.clone(), contact);
            let id = Ticket::record(key);
            let created: Option<Ticket> = db
                .create(id.record_id())
                .content(row.clone())
                .await
                .unwrap_or_else(|e| panic!("{key}: {e}"));
            assert_eq!(created.as_ref(), Some(&row));
            // Read back through the generated helpers, which name the types through `super`.
            let read = desk::db::ticket::get(&db, &id).await.unwrap();
            assert_eq!(read, Some(row));
        }
        let on_it = desk::db::ticket::select(&db, 10).await.unwrap();
        assert_eq!(on_it.len(), 3);
        let agent: Option<desk::Agent> = desk::db::agent::get(&db, &grace).await.unwrap();
        assert_eq!(agent.map(|a| a.name), Some("Grace".to_owned()));
    });
}

#[test]
fn without_flexible_the_engine_refuses_the_row() {
    // What the old hint led to: `type = "object"` compiles, then the SCHEMAFULL table refuses the keys.
    block_on(async {
        let db = loaded().await;
        db.query("DEFINE FIELD OVERWRITE metadata ON ticket TYPE object")
            .await
            .unwrap()
            .check()
            .unwrap();
        let row = ticket(desk::Agent::record("grace"), Contact::Nowhere);
        let err = db
            .create::<Option<Ticket>>(Ticket::record("t1").record_id())
            .content(row)
            .await
            .expect_err("a plain object field keeps no keys");
        assert!(err.to_string().contains("metadata.browser"), "{err}");
    });
}
