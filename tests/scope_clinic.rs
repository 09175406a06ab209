//! The per-user agent's second pass, on a schema of its own (`schemas/clinic.rs`: owners, pets,
//! visits, prescriptions, invoices; owner routes of one to four steps): every exposed table says
//! who owns it, an owner's answers are the same whatever other owners hold (side channels refused),
//! `$auth` is the signed-in owner, and the prompt says whom it answers for.

use surqlc::front::{compile, SourceFile};
use surqlc::runtime::{run_validated, surrealdb, Agent, Outcome, Scope};
use surqlc::validate::{self, Class, Options};
use surqlc_tests::*;

#[deny(warnings)]
mod clinic_db {
    include!(concat!(env!("OUT_DIR"), "/clinic/schema.rs"));
}

const KEY: &str = "clinic-scope-key";
type Session = Agent<surrealdb::engine::any::Any>;

fn owner(user: &str) -> Scope {
    Scope {
        namespace: "ai".into(),
        database: "clinic".into(),
        access: "owner_agent".into(),
        user: user.into(),
        token_duration: std::time::Duration::from_secs(600),
    }
}

/// Other owners' rows only: a fourth owner with pets, visits, prescriptions and invoices, and
/// many more visits of ben's dog whose notes share ana's words. Ana's answers must not change.
const OTHER_OWNERS_ROWS: &str = r#"
CREATE owner:dan SET name = "Dan Ruiz", city = "Porto";
CREATE pet:ziggy SET name = "Ziggy", species = "dog", born = d"2020-01-01T00:00:00Z";
RELATE owner:dan->owns->pet:ziggy SET since = d"2020-02-01T00:00:00Z";
FOR $i IN 1..=40 {
    LET $v = type::record("visit", "x" + <string> $i);
    CREATE $v SET pet = (IF $i % 2 = 0 { pet:ziggy } ELSE { pet:bolt }), vet = vet:hale,
        at = d"2025-07-01T09:00:00Z" + <duration> (<string> $i + "d"), reason = "injury",
        notes = "Dog dog cut paw stitched healthy dog checked";
    RELATE $v->prescribed->medication:amox SET qty = $i;
    CREATE type::record("invoice", "x" + <string> $i) SET visit = $v, amount = 999.00dec, status = "open";
};
"#;

fn clinic_surql() -> String {
    builder("clinic")
        .agent_password("clinic-agent-password")
        .scope_key(KEY)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
        .schema_surql
}

/// The clinic loaded with its seed (and, with `others`, more rows of other owners), and ana's session.
async fn clinic(others: bool) -> (surqlc::db::Db, Session) {
    let seed = read(root().join("schemas/clinic.seed.surql"));
    let extra = if others { OTHER_OWNERS_ROWS } else { "" };
    let db = surqlc::db::connect(&surqlc::db::Target {
        database: "clinic".into(),
        ..Default::default()
    })
    .await
    .expect("embedded engine starts");
    for script in [clinic_surql().as_str(), &seed, extra] {
        surqlc::db::execute(&db, script).await.expect("script loads");
    }
    let ana = owner("owner:ana").signin(&db, KEY).await.expect("ana signs in");
    (db, ana)
}

/// The runner's answer (rows, refusal or engine error) as one text.
async fn answer(session: &Session, query: &str) -> String {
    let schema = clinic_db::schema_ir();
    match run_validated(session, query, std::time::Duration::from_secs(5), schema).await {
        Ok(Outcome::Rows { rows, .. }) => {
            let rows: Vec<serde_json::Value> = rows.into_iter().map(|r| r.into_json_value()).collect();
            serde_json::to_string(&rows).unwrap()
        }
        Ok(other) => format!("{other:?}"),
        Err(e) => format!("connection: {e}"),
    }
}

#[test]
fn an_owner_reads_their_rows_through_routes_of_three_and_four_steps() {
    block_on(async {
        let (_db, ana) = clinic(false).await;
        let cases = [
            ("SELECT VALUE name FROM pet ORDER BY name", r#"["Luna","Rex"]"#),
            (
                "SELECT VALUE id FROM visit ORDER BY id",
                r#"["visit:v1","visit:v2","visit:v3"]"#,
            ),
            ("SELECT VALUE qty FROM prescribed ORDER BY qty", "[5,10]"),
            (
                "SELECT VALUE id FROM invoice ORDER BY id",
                r#"["invoice:i1","invoice:i2","invoice:i3"]"#,
            ),
            ("SELECT count() FROM visit GROUP ALL", r#"[{"count":3}]"#),
            ("SELECT count() FROM vet GROUP ALL", r#"[{"count":2}]"#),
        ];
        for (query, expected) in cases {
            let got = surqlc::db::query_json(ana.session(), query).await.unwrap().to_string();
            assert_eq!(got, expected, "{query}");
        }
        let total = surqlc::db::query_json(
            ana.session(),
            "SELECT math::sum(amount) AS total FROM invoice GROUP ALL",
        )
        .await
        .unwrap()
        .to_string();
        assert!(total.contains("315"), "ana's invoices: 45 + 60 + 210, {total}");
    });
}

/// What an owner sees through the runner, on two databases that differ only in other owners'
/// rows: identical, the refused side channels included.
#[test]
fn an_owners_answers_do_not_change_with_other_owners_rows() {
    const QUERIES: &[&str] = &[
        "SELECT id, reason FROM visit ORDER BY at LIMIT 20",
        "SELECT VALUE count() FROM visit GROUP ALL",
        "SELECT reason, count() AS n FROM visit GROUP BY reason",
        "SELECT VALUE math::sum(amount) FROM invoice WHERE status = 'open' GROUP ALL",
        "SELECT id FROM visit WHERE notes @1@ 'dog' ORDER BY at LIMIT 10",
        "SELECT id, search::score(1) AS score FROM visit WHERE notes @1@ 'dog' ORDER BY score DESC LIMIT 10",
        "SELECT id, search::highlight('<b>', '</b>', 1) AS note FROM visit WHERE notes @1@ 'dog' LIMIT 10",
        "SELECT * FROM invoice EXPLAIN FULL",
        "SELECT * FROM visit EXPLAIN",
        // Sorted: graph edges come back in the order of their random ids.
        "SELECT VALUE array::sort(->owns->pet.name) FROM $auth LIMIT 5",
        "SELECT ->owns->pet->(visit WHERE reason = 'injury') AS injuries FROM $auth LIMIT 5",
        "SELECT VALUE out.name FROM prescribed ORDER BY qty LIMIT 10",
        "SELECT name FROM pet WHERE species = 'dog' LIMIT 10",
        "SELECT VALUE count() FROM owner GROUP ALL",
    ];
    block_on(async {
        let (_a, ana_alone) = clinic(false).await;
        let (_b, ana_among_more) = clinic(true).await;
        for query in QUERIES {
            let alone = answer(&ana_alone, query).await;
            let among = answer(&ana_among_more, query).await;
            assert_eq!(alone, among, "{query}");
            assert!(!alone.contains("connection:"), "{query}: {alone}");
        }
    });
}

/// Without the refusal the engine would show it: the BM25 score of ana's own visit changes when
/// another owner's visits gain her words (so the refusal closes a real channel).
#[test]
fn a_search_score_is_computed_over_every_owners_rows() {
    // `weight` is in one of ana's notes; the other owners' rows only change how many notes there are.
    let query = "SELECT VALUE search::score(1) FROM visit WHERE notes @1@ 'weight' ORDER BY id LIMIT 5";
    block_on(async {
        let (_a, alone) = clinic(false).await;
        let (_b, among) = clinic(true).await;
        let a = surqlc::db::query_json(alone.session(), query).await.unwrap();
        let b = surqlc::db::query_json(among.session(), query).await.unwrap();
        assert_ne!(a, b, "the engine's scores for ana's rows");
        let refused = answer(&alone, query).await;
        assert!(
            refused.contains("SQ1001") && refused.contains("search::score"),
            "{refused}"
        );
    });
}

fn session_options() -> Options {
    Options::of(clinic_db::schema_ir()).in_end_user_session(clinic_db::schema_ir())
}

#[test]
fn auth_is_the_signed_in_owner() {
    let schema = clinic_db::schema_ir();
    let report = validate::validate_with(
        schema,
        "SELECT ->owns->pet.name AS pets FROM $auth LIMIT 5",
        &session_options(),
    );
    assert!(report.diagnostics.is_empty(), "{:?}", report.diagnostics);
    assert_eq!(report.projections[0].ty.to_string(), "array<string>");
    let typo = validate::validate_with(schema, "SELECT $auth.nme FROM pet LIMIT 1", &session_options());
    assert!(typo.has(Class::UnknownField), "{:?}", typo.diagnostics);
    let bad_edge = validate::validate_with(schema, "SELECT ->owns->visit FROM $auth LIMIT 1", &session_options());
    assert!(bad_edge.has_errors(), "{:?}", bad_edge.diagnostics);
    // The team's agent answers for no user.
    let team = validate::validate(schema, "SELECT name FROM $auth LIMIT 1");
    assert!(team.has(Class::AuthOutsideSession), "{:?}", team.diagnostics);
    assert!(team.render("SELECT name FROM $auth LIMIT 1").contains("--as owner:ID"));
    block_on(async {
        let (_db, ana) = clinic(false).await;
        answer_sorted(&ana).await;
    });
}

async fn answer_sorted(ana: &Session) -> String {
    let rows = answer(ana, "SELECT VALUE ->owns->pet.name FROM $auth LIMIT 5").await;
    assert!(
        rows.contains("Rex") && rows.contains("Luna") && !rows.contains("Bolt"),
        "{rows}"
    );
    rows
}

#[test]
fn the_prompt_and_its_rules_say_whom_the_agent_answers_for() {
    block_on(async {
        let (_db, ana) = clinic(false).await;
        let prompt = surqlc::db::query_string(
            ana.session(),
            "RETURN fn::nl2surql_prompt('How many visits did my pets have?', [0.1, 0.2, 0.3, 0.4])",
        )
        .await
        .unwrap();
        assert!(
            prompt.contains("You answer for one signed-in owner: $auth is their record"),
            "{prompt}"
        );
        assert!(prompt.contains("FROM $auth"), "{prompt}");
        assert!(
            prompt.contains("`visit`") && prompt.contains("`invoice`") && !prompt.contains("`vet`,"),
            "{prompt}"
        );
        for other in ["Ben Okafor", "Cho Min", "owner:ben", "Bolt", "Tofu"] {
            assert!(!prompt.contains(other), "{other} in ana's prompt");
        }
    });
}

fn compiled(text: &str) -> Result<surqlc::ir::Schema, String> {
    let path = schema_file("clinic_variant", text);
    compile(&[SourceFile::read(&path).unwrap()]).map_err(|d| d.to_string())
}

fn clinic_text() -> String {
    read(root().join("schemas/clinic.rs"))
}

#[test]
fn a_table_that_does_not_say_who_owns_it_is_an_error_with_the_routes_to_its_owner() {
    let text = clinic_text().replace("    owner = \"pet<-owns<-owner\",\n", "");
    let err = compiled(&text).unwrap_err();
    assert!(
        err.contains("`visit` is exposed to the per-user agent but does not say who owns its rows"),
        "{err}"
    );
    assert!(err.contains("#[surqlc(owner = \"pet<-owns<-owner\")]"), "{err}");
    assert!(err.contains("#[surqlc(shared)]"), "{err}");
    // At the table's name: `pub struct Visit`.
    let line = text.lines().position(|l| l.starts_with("pub struct Visit")).unwrap() + 1;
    assert!(err.contains(&format!("clinic_variant.rs:{line}:12")), "{err}");
    // Four steps from an invoice, through two links and a relation.
    let text = clinic_text().replace("#[surqlc(owner = \"visit.pet<-owns<-owner\")]\n", "");
    let err = compiled(&text).unwrap_err();
    assert!(err.contains("#[surqlc(owner = \"visit.pet<-owns<-owner\")]"), "{err}");
    // The store's shared catalogue, left unsaid: a route back through orders is suggested.
    let store = read(root().join("schemas/store.rs")).replace("#[surqlc(shared)]\n", "");
    let err = compiled(&store).unwrap_err();
    assert!(err.contains("`product` is exposed to the per-user agent"), "{err}");
    assert!(err.contains("<-contains<-purchase<-placed<-customer"), "{err}");
}

#[test]
fn owner_and_shared_are_checked_against_the_scope() {
    let both = clinic_text().replace(
        "#[surqlc(shared)]\npub struct Vet",
        "#[surqlc(shared, owner = \"in\")]\npub struct Vet",
    );
    let err = compiled(&both).unwrap_err();
    assert!(err.contains("says both"), "{err}");
    // A typo in end_user is reported once, not as "add scope(...)" on every owned table.
    let typo = clinic_text().replace("scope(end_user = Owner,", "scope(end_user = Ownr,");
    let err = compiled(&typo).unwrap_err();
    assert!(err.contains("`Ownr` is not a table"), "{err}");
    assert!(err.contains("did you mean `Owner`"), "{err}");
    assert!(!err.contains("needs a per-user agent"), "{err}");
    // `shared` without a scope means nothing.
    let no_scope = clinic_text()
        .replace(
            "    scope(end_user = Owner, access = \"owner_agent\", token = \"15m\", session = \"1h\")\n",
            "",
        )
        .replace(
            "agent(user = \"agent\", token = \"1h\", session = \"12h\"),",
            "agent(user = \"agent\", token = \"1h\", session = \"12h\")",
        );
    let err = compiled(&no_scope).unwrap_err();
    assert!(
        err.contains("`shared` only means something to a per-user agent"),
        "{err}"
    );
    // A wrong route's error names the routes that do reach the owner.
    let wrong = clinic_text().replace("owner = \"pet<-owns<-owner\"", "owner = \"visit.pet.owner\"");
    let err = compiled(&wrong).unwrap_err();
    assert!(
        err.contains("routes from `visit` that reach `owner`: `pet<-owns<-owner`"),
        "{err}"
    );
}

#[test]
fn every_suggested_route_is_one_the_engine_follows() {
    // Each table's declared route against the suggestions: the declared one is among them.
    let schema = compile(&[SourceFile::read(root().join("schemas/clinic.rs")).unwrap()]).unwrap();
    for table in &schema.tables {
        let Some(route) = &table.owner else { continue };
        let mut text = clinic_text();
        let written = format!("owner = \"{route}\"");
        text = text.replacen(&written, "owner = \"nowhere\"", 1);
        let err = compiled(&text).unwrap_err();
        assert!(err.contains(&format!("`{route}`")), "{}: {err}", table.name);
    }
}

/// A scoped schema whose owned table has an HNSW index: what KNN answers one user.
const NOTES: &str = r#"
use surqlc::runtime::Link;
use surqlc_macros::{Schema, Table};
#[derive(Schema)]
#[surqlc(expose(Person, Note), scope(end_user = Person))]
pub struct Notebook;
#[derive(Table)]
pub struct Person { pub name: String }
#[derive(Table)]
#[surqlc(owner = "author", index(fields(embedding), hnsw(dimension = 2, dist = "euclidean", type = "f64")))]
pub struct Note { pub author: Link<Person>, pub embedding: Vec<f64> }
"#;

#[test]
fn an_hnsw_search_over_an_owned_table_answers_the_users_own_nearest() {
    let path = schema_file("notebook", NOTES);
    let output = surqlc::Builder::new()
        .schema(&path)
        .cargo_metadata(false)
        .agent_password("notebook-password")
        .scope_key(KEY)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    let schema = &output.schema;
    let hnsw = "SELECT id FROM note WHERE embedding <|2, 40|> [0.0, 0.0] LIMIT 2";
    let exact = "SELECT id FROM note WHERE embedding <|2, EUCLIDEAN|> [0.0, 0.0] LIMIT 2";
    // The KNN operator stays allowed in a session (only `vector::distance::knn()` is refused).
    let options = Options::of(schema).in_end_user_session(schema);
    for query in [hnsw, exact] {
        let report = validate::validate_with(schema, query, &options);
        assert!(report.diagnostics.is_empty(), "{query}: {:?}", report.diagnostics);
    }
    // On the engine: bo's notes are nearer than al's, yet the HNSW search answers al her own two
    // nearest, as the exact search does: it does not find bo's and then drop them (which would
    // tell al, by a short answer, that nearer rows exist).
    block_on(async {
        let db = surqlc::db::connect(&surqlc::db::Target {
            database: "notebook".into(),
            ..Default::default()
        })
        .await
        .unwrap();
        surqlc::db::execute(&db, &output.schema_surql).await.unwrap();
        surqlc::db::execute(
            &db,
            "CREATE person:al SET name = 'Al'; CREATE person:bo SET name = 'Bo';
             CREATE note:a1 SET author = person:al, embedding = [5.0, 5.0];
             CREATE note:a2 SET author = person:al, embedding = [6.0, 6.0];
             CREATE note:b1 SET author = person:bo, embedding = [0.1, 0.1];
             CREATE note:b2 SET author = person:bo, embedding = [0.2, 0.2];",
        )
        .await
        .unwrap();
        let mut al = owner("person:al");
        al.database = "notebook".into();
        al.access = "person_agent".into();
        let al = al.signin(&db, KEY).await.expect("al signs in");
        let by_index = surqlc::db::query_json(al.session(), hnsw).await.unwrap();
        let by_distance = surqlc::db::query_json(al.session(), exact).await.unwrap();
        assert_eq!(by_index, by_distance);
        assert_eq!(by_index.as_array().unwrap().len(), 2, "{by_index}");
        assert!(!by_distance.to_string().contains("note:b"), "{by_distance}");
    });
}
