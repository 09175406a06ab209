//! The agent reads only what the prompt shows, and the engine holds it there: a schema that hides a
//! table or a field gets a record-access agent refused them by every route; a schema that hides
//! nothing keeps the lesson's database `VIEWER`.

use surqlc::access::{self, Mechanism};
use surqlc::db::{self, Db};
use surqlc::runtime::{surrealdb, Agent, Outcome};
use surqlc_tests::*;

#[deny(warnings)]
mod library_db {
    include!(concat!(env!("OUT_DIR"), "/library/schema.rs"));
}

const PASSWORD: &str = "visibility-test";

/// A library member with a hidden phone number and an entry of the hidden audit log, as the owner writes them.
pub const LIBRARY_ROWS: &str = "CREATE member:m1 SET cardId = rand::uuid(), displayName = 'Ann', level = 'ADULT', nicknames = [], phone = '987654';
     CREATE loan_audit:a1 SET member = member:m1, note = 'SECRET-CASE';";

/// What the owner writes and the agent must never see.
const SECRETS: &[&str] = &["SECRET-CASE", "987654", "SECRET-NOTE"];

fn hr() -> surqlc::builder::Output {
    surqlc::Builder::new()
        .schema(root().join("tests/fixtures/visibility.rs"))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
}

/// The HR schema applied and filled by the owner, and the agent's session beside it.
async fn hr_db(output: &surqlc::builder::Output) -> (Db, Agent<surrealdb::engine::any::Any>) {
    let db = loaded(&[
        &output.schema_surql,
        "CREATE employee:e1 SET name = 'Ada', salary = 987654, notes = ['SECRET-NOTE'];
         CREATE employee:e2 SET name = 'Bo', salary = 1000, notes = [];
         CREATE team:t1 SET name = 'Core';
         RELATE employee:e1->member_of->team:t1;
         CREATE case:c1 SET about = employee:e1, summary = 'SECRET-CASE';
         RELATE employee:e1->flagged->case:c1;
         DEFINE FUNCTION OVERWRITE fn::peek() { RETURN SELECT * FROM case; };",
    ])
    .await;
    let agent = surqlc::runtime::signin_record_agent(&db, "ai", "store", "agent", PASSWORD)
        .await
        .expect("the record-access agent signs in");
    (db, agent)
}

/// Every statement's result (or error) as one JSON text.
async fn as_agent(agent: &Agent<surrealdb::engine::any::Any>, query: &str) -> String {
    let mut response = agent
        .session()
        .query(query)
        .await
        .unwrap_or_else(|e| panic!("{query}: {e}"));
    (0..response.num_statements())
        .map(|i| match response.take::<surrealdb::types::Value>(i) {
            Ok(v) => v.into_json_value().to_string(),
            Err(e) => format!("error: {e}"),
        })
        .collect::<Vec<_>>()
        .join(" | ")
}

#[test]
fn a_schema_that_hides_something_gets_a_record_access_agent() {
    let output = hr();
    assert_eq!(access::mechanism(&output.schema), Mechanism::RecordAccess);
    assert_eq!(
        access::reasons(&output.schema),
        [
            "field employee.salary is hidden",
            "field employee.notes is hidden",
            "table case is not exposed"
        ]
    );
    // The exposed edge into the hidden table names it in the prompt: said at build time.
    let warnings: Vec<String> = output.warnings.iter().map(|w| w.message.clone()).collect();
    assert_eq!(
        warnings,
        ["the relation `flagged` is exposed but its end `case` is not: the prompt names `case`, though the agent cannot read it; expose both or neither"]
    );
    let surql = &output.schema_surql;
    assert!(surql.contains("DEFINE ACCESS OVERWRITE agent ON DATABASE TYPE RECORD"));
    assert!(surql.contains("REMOVE USER IF EXISTS agent ON DATABASE;"));
    assert!(!surql.contains("ROLES VIEWER"), "no VIEWER beside record access");
    // The store hides nothing: the lesson's VIEWER, and no record access.
    let store = builder("store").agent_password(PASSWORD).generate().unwrap();
    assert_eq!(access::mechanism(&store.schema), Mechanism::Viewer);
    assert!(store.schema_surql.contains("ROLES VIEWER"));
    assert!(!store.schema_surql.contains("DEFINE ACCESS"));
}

#[test]
fn hidden_rows_and_fields_are_unreadable_by_every_route() {
    let output = hr();
    block_on(async {
        let (db, agent) = hr_db(&output).await;
        let routes = [
            // The hidden table: plain, by id, in a subquery, counted, by link and by traversal.
            "SELECT * FROM case",
            "SELECT * FROM case:c1",
            "SELECT summary FROM case WHERE about = employee:e1",
            "SELECT *, (SELECT * FROM case) AS cases FROM employee",
            "RETURN count(SELECT * FROM case)",
            "RETURN case:c1.*",
            "RETURN case:c1.summary",
            "SELECT ->flagged->case.* AS cases FROM employee",
            "SELECT ->flagged->case.summary AS s FROM employee",
            "SELECT <-flagged<-employee.* AS who FROM case:c1",
            "SELECT * FROM employee WHERE id INSIDE (SELECT VALUE about FROM case)",
            // Functions: a user's, the built-in ones, the live walk (INFO) and the cached block.
            "RETURN fn::peek()",
            "RETURN record::exists(case:c1)",
            "RETURN fn::schema_context()",
            "RETURN $schema_context_cache",
            "RETURN fn::schema_context_live()",
            "INFO FOR TABLE case",
            "INFO FOR TABLE employee",
            "INFO FOR DB",
            // The hidden fields: projected, filtered on, sorted by, aggregated, grouped, by path.
            "SELECT * FROM employee",
            "SELECT name, salary, notes FROM employee",
            "SELECT VALUE salary FROM employee",
            "SELECT name FROM employee WHERE salary = 987654",
            "SELECT name FROM employee WHERE notes CONTAINS 'SECRET-NOTE'",
            "SELECT math::max(salary) AS top, math::sum(salary) AS total FROM employee GROUP ALL",
            "SELECT salary, count() AS n FROM employee GROUP BY salary",
            "RETURN employee:e1.salary",
            "RETURN employee:e1.notes",
            "SELECT object::values($this) AS v FROM employee",
            "SELECT ->flagged->case.about.salary AS s FROM employee",
            "RETURN (SELECT * FROM employee:e1)[0].salary",
            // The identity table that holds the agent's password hash.
            "SELECT * FROM surqlc_agent",
        ];
        for route in routes {
            let seen = as_agent(&agent, route).await;
            for secret in SECRETS {
                assert!(!seen.contains(secret), "{route} showed {secret}: {seen}");
            }
            assert!(!seen.contains("argon2"), "{route} showed the hash: {seen}");
        }
        // Refusals rather than empty answers, where the engine refuses.
        assert!(as_agent(&agent, "INFO FOR TABLE case").await.starts_with("error"));
        assert!(as_agent(&agent, "INFO FOR DB").await.starts_with("error"));
        assert_eq!(as_agent(&agent, "RETURN record::exists(case:c1)").await, "false");
        // Sorting by a hidden field orders nothing: e2 (1000) does not come before e1 (987654).
        assert_eq!(
            as_agent(&agent, "SELECT VALUE name FROM employee ORDER BY salary ASC").await,
            as_agent(&agent, "SELECT VALUE name FROM employee ORDER BY salary DESC").await
        );
        // The agent cannot write, even where it can read.
        for write in [
            "CREATE case SET about = employee:e2, summary = 'x'",
            "UPDATE employee:e2 SET salary = 1",
            "DELETE employee:e2",
            "CREATE team SET name = 'x'",
            "SELECT * FROM (CREATE team SET name = 'y')",
            "RETURN fn::remember_example('q', 'SELECT * FROM team', [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 0.0])",
        ] {
            let _ = as_agent(&agent, write).await;
        }
        assert_eq!(
            db::query_json(&db, "SELECT VALUE [name, salary] FROM employee ORDER BY name")
                .await
                .unwrap(),
            serde_json::json!([["Ada", 987654], ["Bo", 1000]])
        );
        assert_eq!(
            db::query_json(
                &db,
                "RETURN [count(SELECT * FROM case), count(SELECT * FROM team), count(SELECT * FROM query_example)]"
            )
            .await
            .unwrap(),
            serde_json::json!([1, 1, 0])
        );
    });
}

#[test]
fn the_exposed_part_reads_as_before() {
    let output = hr();
    block_on(async {
        let (db, agent) = hr_db(&output).await;
        assert_eq!(
            as_agent(&agent, "SELECT VALUE name FROM employee ORDER BY name").await,
            r#"["Ada","Bo"]"#
        );
        assert_eq!(
            as_agent(&agent, "SELECT VALUE ->member_of->team.name FROM employee:e1").await,
            r#"[["Core"]]"#
        );
        // The edge into the hidden table is exposed: the agent sees that it exists, not what it points to.
        assert_eq!(
            as_agent(&agent, "SELECT VALUE count(->flagged) FROM employee:e1").await,
            "[1]"
        );
        // The prompt's block is the one the IR renders, without the hidden fields, read by owner and agent alike.
        let block = db::query_string(&db, "RETURN fn::schema_context()").await.unwrap();
        assert_eq!(block, surqlc::surql::info::schema_block(&output.schema));
        assert_eq!(
            block,
            db::query_string(&db, "RETURN fn::schema_context_live()").await.unwrap()
        );
        assert_eq!(
            as_agent(&agent, "RETURN fn::schema_context()").await,
            serde_json::Value::String(block.clone()).to_string()
        );
        for gone in ["salary", "notes", "DEFINE TABLE case", "PERMISSIONS"] {
            assert!(!block.contains(gone), "the block shows {gone}:\n{block}");
        }
        assert!(block.contains("DEFINE FIELD name ON employee TYPE string COMMENT 'Full name.';"));
        assert!(block.contains("DEFINE TABLE flagged TYPE RELATION IN employee OUT case"));
    });
}

#[test]
fn a_compact_block_leaves_the_hidden_fields_out_too() {
    let source = read(root().join("tests/fixtures/visibility.rs")).replace(
        "#[surqlc(expose(Employee, Team, MemberOf, Flagged))]",
        "#[surqlc(expose(Employee, Team, MemberOf, Flagged), compact)]",
    );
    let output = surqlc::Builder::new()
        .schema(schema_file("visibility_compact", &source))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    block_on(async {
        let db = loaded(&[&output.schema_surql]).await;
        let block = db::query_string(&db, "RETURN fn::schema_context()").await.unwrap();
        assert_eq!(block, surqlc::surql::info::schema_block(&output.schema));
        assert_eq!(
            block,
            db::query_string(&db, "RETURN fn::schema_context_live()").await.unwrap()
        );
        assert!(block.starts_with("DEFINE TABLE employee COMMENT"), "{block}");
        for gone in ["salary", "notes", "PERMISSIONS"] {
            assert!(!block.contains(gone), "the block shows {gone}:\n{block}");
        }
    });
}

#[test]
fn the_validator_says_the_same_of_hidden_and_missing_names() {
    let schema = hr().schema;
    let said = |query: &str, name: &str| {
        surqlc::validate::validate(&schema, query)
            .render(query)
            .replace(name, "NAME")
    };
    assert_eq!(
        said("SELECT salary FROM employee LIMIT 5", "salary"),
        said("SELECT wxyzqv FROM employee LIMIT 5", "wxyzqv")
    );
    assert_eq!(
        said("SELECT * FROM case LIMIT 5", "case"),
        said("SELECT * FROM wxyz LIMIT 5", "wxyz")
    );
    assert!(said("SELECT salary FROM employee LIMIT 5", "salary").contains("NAME"));
}

#[test]
fn the_generated_library_module_signs_in_by_record_access() {
    block_on(async {
        let db = surrealdb::engine::any::connect("mem://").await.unwrap();
        db.use_ns("ai").use_db("library").await.unwrap();
        library_db::apply_schema(&db).await.expect("schema applies");
        library_db::apply_schema(&db).await.expect("and applies twice");
        db.query(LIBRARY_ROWS)
            .await
            .unwrap()
            .check()
            .expect("rows written by the owner");
        let agent = library_db::agent_signin(&db, "ai", "library", "test-agent-password")
            .await
            .expect("the generated module signs the agent in");
        let outcome = library_db::run_readonly(&agent, "SELECT * FROM member LIMIT 5")
            .await
            .unwrap();
        let rows = serde_json::to_string(&outcome.rows_json().expect("rows")).unwrap();
        assert!(rows.contains("Ann") && !rows.contains("987654"), "{rows}");
        for query in ["SELECT phone FROM member LIMIT 5", "SELECT * FROM loan_audit LIMIT 5"] {
            match library_db::run_readonly(&agent, query).await.unwrap() {
                Outcome::Rejected(why) => assert!(!why.contains("987654"), "{why}"),
                other => panic!("{query} should be refused: {other:?}"),
            }
        }
        let raw = as_agent(&agent, "SELECT * FROM loan_audit; SELECT phone FROM member").await;
        assert!(!raw.contains("SECRET") && !raw.contains("987654"), "{raw}");
        // A wrong password is refused with who tried where.
        let wrong = library_db::agent_signin(&db, "ai", "library", "not-it")
            .await
            .expect_err("a wrong password is refused")
            .to_string();
        assert!(wrong.contains("librarian_bot") && wrong.contains("library"), "{wrong}");
    });
}

/// A schema with a hidden field and a table record users may write to: `rule` is the table's
/// create permission.
fn writable(rule: &str) -> surqlc::builder::Output {
    let text = format!(
        r#"use surqlc_macros::{{Schema, Table}};
#[derive(Schema)]
#[surqlc(expose(Note))]
pub struct Notes;
/// A note.
#[derive(Table)]
#[surqlc(permissions(create = "{rule}"))]
pub struct Note {{
    /// The text.
    pub text: String,
    /// Not for the model.
    #[surqlc(hidden)]
    pub secret: String,
}}
"#
    );
    let name = format!("writable_{}", rule.len());
    surqlc::Builder::new()
        .schema(schema_file(&name, &text))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
}

#[test]
fn a_record_access_agent_that_could_write_is_warned_of_with_the_remedy() {
    block_on(async {
        // `create = "true"`: any record user may create notes, and so may the agent.
        let open = writable("true");
        let warnings: Vec<&str> = open.warnings.iter().map(|w| w.message.as_str()).collect();
        assert_eq!(warnings.len(), 1, "{warnings:?}");
        assert!(
            warnings[0].contains("`note` lets record users create")
                && warnings[0].contains("$access != \"agent\" AND "),
            "{}",
            warnings[0]
        );
        let db = loaded(&[&open.schema_surql]).await;
        let agent = surqlc::runtime::signin_record_agent(&db, "ai", "store", "agent", PASSWORD)
            .await
            .unwrap();
        let wrote = as_agent(
            &agent,
            "CREATE note SET text = 'x', secret = 'y' RETURN NONE; SELECT count() FROM note GROUP ALL",
        )
        .await;
        assert!(wrote.ends_with("[{\"count\":1}]"), "the risk is real: {wrote}");
        // The remedy the warning gives shuts the agent out and keeps the rule for others.
        let guarded = writable("$access != 'agent' AND true");
        assert!(guarded.warnings.is_empty(), "the remedy silences the warning");
        let db = loaded(&[&guarded.schema_surql]).await;
        let agent = surqlc::runtime::signin_record_agent(&db, "ai", "store", "agent", PASSWORD)
            .await
            .unwrap();
        let wrote = as_agent(
            &agent,
            "CREATE note SET text = 'x', secret = 'y' RETURN NONE; SELECT count() FROM note GROUP ALL",
        )
        .await;
        assert!(!wrote.ends_with("[{\"count\":1}]"), "the agent still wrote: {wrote}");
    })
}
