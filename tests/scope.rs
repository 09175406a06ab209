//! The per-user agent (`scope(end_user = Customer)` on the store): a session opened with a token
//! the application signs reads exactly one customer's rows, by every route a query can take, and
//! writes nothing; the prompt built in that session carries no other customer's values.

use surqlc::runtime::{surrealdb, Agent, Scope};
use surqlc_tests::*;

const KEY: &str = "scope-test-key";
const PASSWORD: &str = "scope-test-password";

type Session = Agent<surrealdb::engine::any::Any>;

fn store() -> surqlc::builder::Output {
    builder("store")
        .agent_password(PASSWORD)
        .scope_key(KEY)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"))
}

fn scope(user: &str) -> Scope {
    Scope {
        namespace: "ai".into(),
        database: "store".into(),
        access: "customer_agent".into(),
        user: user.into(),
        token_duration: std::time::Duration::from_secs(600),
    }
}

/// The store loaded with its seed, and the sessions of two customers.
async fn store_db() -> (surqlc::db::Db, Session, Session) {
    let output = store();
    let db = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
    let mei = scope("customer:mei").signin(&db, KEY).await.expect("mei signs in");
    let sam = scope("customer:sam").signin(&db, KEY).await.expect("sam signs in");
    (db, mei, sam)
}

/// Every statement's result (or error) as JSON texts.
async fn run(session: &surqlc::db::Db, query: &str) -> Vec<String> {
    let mut response = session.query(query).await.unwrap_or_else(|e| panic!("{query}: {e}"));
    (0..response.num_statements())
        .map(|i| match response.take::<surrealdb::types::Value>(i) {
            Ok(v) => v.into_json_value().to_string(),
            Err(e) => format!("error: {e}"),
        })
        .collect()
}

async fn one(session: &Session, query: &str) -> String {
    run(session.session(), query).await.join(" | ")
}

#[test]
fn a_customer_reads_their_own_rows_and_the_shared_ones() {
    block_on(async {
        let (_db, mei, sam) = store_db().await;
        assert_eq!(one(&mei, "SELECT VALUE id FROM customer").await, r#"["customer:mei"]"#);
        assert_eq!(
            one(&mei, "SELECT VALUE id FROM purchase ORDER BY id").await,
            r#"["purchase:p1","purchase:p6"]"#
        );
        assert_eq!(
            one(&sam, "SELECT VALUE id FROM purchase ORDER BY id").await,
            r#"["purchase:p2","purchase:p7"]"#
        );
        assert_eq!(
            one(&mei, "SELECT VALUE count() FROM product GROUP ALL").await,
            r#"[{"count":6}]"#
        );
    });
}

/// What must never reach mei's session: the other customers' names and the ids of their rows.
const OTHERS: &[&str] = &[
    "Omar",
    "Lena",
    "Sam Carter",
    "Inês",
    "customer:omar",
    "customer:lena",
    "customer:sam",
    "customer:ines",
    "purchase:p2",
    "purchase:p3",
    "purchase:p4",
    "purchase:p5",
    "purchase:p7",
];

fn assert_only_mei(query: &str, answer: &str) {
    for other in OTHERS {
        assert!(!answer.contains(other), "{query} showed mei `{other}`: {answer}");
    }
}

/// Every route the visibility tests take, as mei: no row of another customer comes back.
#[test]
fn no_route_leaves_the_customers_rows() {
    block_on(async {
        let (_db, mei, _sam) = store_db().await;
        let routes = [
            "SELECT * FROM purchase:p2",
            "SELECT * FROM [purchase:p2, purchase:p4, customer:sam]",
            "SELECT * FROM type::record('purchase', 'p2')",
            "SELECT * FROM type::record('customer', 'sam')",
            "SELECT VALUE ->contains->product<-contains<-purchase FROM purchase:p1",
            "SELECT VALUE <-contains<-purchase FROM product",
            "SELECT VALUE <-contains<-purchase<-placed<-customer.name FROM product",
            "SELECT ->placed->purchase FROM customer:sam",
            "SELECT * FROM contains WHERE out = product:buds",
            "SELECT *, (SELECT * FROM purchase) AS every_purchase, (SELECT name FROM customer) AS names FROM product",
            "SELECT * FROM placed FETCH in, out",
            "SELECT * FROM contains FETCH in",
            "SELECT in.*, out.* FROM contains",
            "SELECT VALUE purchase:p2.status FROM ONLY product:buds",
            "SELECT VALUE customer:sam.name FROM product",
            "SELECT * FROM customer WHERE name CONTAINS 'a'",
            "SELECT * FROM purchase WITH NOINDEX WHERE status = 'shipped'",
            "SELECT * FROM (SELECT * FROM purchase)",
            "SELECT count() AS n, status FROM purchase GROUP BY status",
            "RETURN fn::value_hints()",
            "RETURN fn::nl2surql_prompt('my orders', [0.1, 0.9, 0.0, 0.1])",
            "RETURN fn::schema_context()",
            "RETURN fn::similar_examples([0.1, 0.9, 0.0, 0.1])",
            "LET $auth = customer:sam; SELECT * FROM purchase",
            "LET $token = { ID: 'customer:sam' }; SELECT * FROM purchase",
            "LET $access = 'agent'; SELECT * FROM purchase",
            "SELECT * FROM purchase WHERE $auth = customer:mei OR true",
            "SELECT * FROM customer:sam->placed->purchase",
            "SELECT * FROM array::flatten((SELECT VALUE ->placed->purchase FROM customer))",
        ];
        for query in routes {
            let answer = one(&mei, query).await;
            assert_only_mei(query, &answer);
        }
        // The same rows the owner counts for mei, whatever the aggregate.
        for (query, expected) in [
            ("SELECT count() FROM purchase GROUP ALL", r#"[{"count":2}]"#),
            ("SELECT count() FROM placed GROUP ALL", r#"[{"count":2}]"#),
            ("SELECT count() FROM contains GROUP ALL", r#"[{"count":3}]"#),
            ("SELECT count() FROM customer GROUP ALL", r#"[{"count":1}]"#),
            ("SELECT math::sum(qty) AS n FROM contains GROUP ALL", r#"[{"n":4}]"#),
            ("RETURN count(SELECT * FROM purchase)", "2"),
            ("RETURN array::len((SELECT VALUE id FROM contains))", "3"),
        ] {
            assert_eq!(one(&mei, query).await, expected, "{query}");
        }
    });
}

/// Nothing the per-user agent sends writes, and INFO is refused to it.
#[test]
fn the_customer_writes_nothing() {
    block_on(async {
        let (db, mei, _sam) = store_db().await;
        let before = run(&db, "SELECT VALUE count() FROM purchase GROUP ALL; SELECT VALUE count() FROM placed GROUP ALL; SELECT VALUE count() FROM contains GROUP ALL; SELECT VALUE count() FROM customer GROUP ALL; SELECT VALUE count() FROM query_example GROUP ALL; SELECT * FROM purchase:p1").await;
        for write in [
            "CREATE purchase SET placed_at = time::now(), status = 'pending'",
            "UPDATE purchase:p1 SET status = 'cancelled'",
            "UPSERT purchase:p1 SET status = 'cancelled'",
            "DELETE placed",
            "DELETE purchase:p1",
            "RELATE customer:mei->placed->purchase:p2",
            "INSERT INTO customer { id: customer:eve, name: 'Eve', country: 'GB', tier: 'pro', joined: time::now() }",
            "RETURN fn::remember_example('q', 'SELECT * FROM product', [0.0, 0.0, 0.0, 1.0])",
            "SELECT * FROM product WHERE (UPDATE purchase:p1 SET status = 'cancelled')",
            "DEFINE TABLE sneaky",
        ] {
            one(&mei, write).await;
        }
        let after = run(&db, "SELECT VALUE count() FROM purchase GROUP ALL; SELECT VALUE count() FROM placed GROUP ALL; SELECT VALUE count() FROM contains GROUP ALL; SELECT VALUE count() FROM customer GROUP ALL; SELECT VALUE count() FROM query_example GROUP ALL; SELECT * FROM purchase:p1").await;
        assert_eq!(before, after);
        assert!(one(&mei, "INFO FOR DB").await.starts_with("error"));
    });
}

/// Only a token signed with the scope key, for an existing customer, opens a session.
#[test]
fn only_the_applications_tokens_for_real_customers_sign_in() {
    block_on(async {
        let (db, _mei, _sam) = store_db().await;
        assert!(scope("customer:mei").signin(&db, "another key").await.is_err());
        assert!(scope("customer:nobody").signin(&db, KEY).await.is_err());
        assert!(scope("product:buds").signin(&db, KEY).await.is_err());
        let mut tampered = scope("customer:mei").token(KEY);
        // The claims swapped for sam's, the signature kept.
        let sam = scope("customer:sam").token(KEY);
        let mid = |t: &str| t.split('.').nth(1).unwrap().to_owned();
        tampered = tampered.replace(&mid(&tampered), &mid(&sam));
        assert!(surqlc::runtime::scope::authenticate(&db, "ai", "store", &tampered)
            .await
            .is_err());
        let again = surqlc::runtime::scope::authenticate(&db, "ai", "store", &sam)
            .await
            .expect("the application's token opens sam's session");
        assert_eq!(
            one(&again, "SELECT VALUE id FROM customer").await,
            r#"["customer:sam"]"#
        );
    });
}

/// Re-applying the unchanged schema keeps an issued token valid (the key pair is derived, not drawn).
#[test]
fn reapplying_the_schema_keeps_tokens_valid() {
    block_on(async {
        let (db, _mei, _sam) = store_db().await;
        let token = scope("customer:mei").token(KEY);
        surqlc::db::execute(&db, &store().schema_surql)
            .await
            .expect("applied again");
        let mei = surqlc::runtime::scope::authenticate(&db, "ai", "store", &token)
            .await
            .expect("the token issued before still works");
        assert_eq!(one(&mei, "SELECT VALUE id FROM customer").await, r#"["customer:mei"]"#);
    });
}

/// The prompt built in mei's session: the rules for one customer, the same schema block as the
/// agent's, and no other customer's values in the hints or examples.
#[test]
fn the_customers_prompt_carries_only_their_values() {
    block_on(async {
        let (db, mei, _sam) = store_db().await;
        let schema = store().schema;
        let vector = [0.1, 0.9, 0.0, 0.1];
        let mine = surqlc::runtime::ask::prompt(mei.session(), &schema, "What did I order?", Some(&vector))
            .await
            .expect("mei's prompt");
        let agent = surqlc::runtime::signin_agent(&db, "ai", "store", "agent", PASSWORD)
            .await
            .expect("the agent signs in");
        let whole = surqlc::runtime::ask::prompt(agent.session(), &schema, "What did I order?", Some(&vector))
            .await
            .expect("the agent's prompt");
        assert_only_mei("mei's prompt", &mine);
        assert!(
            mine.contains("You answer for one signed-in customer: $auth is their record"),
            "{mine}"
        );
        assert!(!whole.contains("signed-in customer"), "{whole}");
        let block = |p: &str| p[p.find("SCHEMA\n").unwrap()..p.find("VALUES\n").unwrap()].to_owned();
        assert_eq!(block(&mine), block(&whole));
        assert!(!block(&mine).contains("PERMISSIONS"), "{mine}");
        // The agent's hints name every country; mei's only hers.
        assert!(whole.contains("customer.country: DE, ES, GB, US"), "{whole}");
        assert!(mine.contains("customer.country: GB\n"), "{mine}");
    });
}

/// An example that names a customer's values (written by the owner) reaches the agent's prompt,
/// never a customer's.
#[test]
fn examples_naming_a_customers_values_stay_with_the_agent() {
    block_on(async {
        let (db, mei, _sam) = store_db().await;
        surqlc::db::execute(
            &db,
            "CREATE query_example:omar SET question = 'What did Omar Haddad order?', \
             surql = \"SELECT ->placed->purchase FROM customer WHERE name = 'Omar Haddad' LIMIT 50;\", \
             embedding = [0.1, 0.9, 0.0, 0.1];",
        )
        .await
        .expect("the owner writes the example");
        let examples = "RETURN fn::example_context([0.1, 0.9, 0.0, 0.1])";
        assert!(one(&mei, examples).await.contains("How many orders"));
        assert_only_mei("mei's examples", &one(&mei, examples).await);
        let agent = surqlc::runtime::signin_agent(&db, "ai", "store", "agent", PASSWORD)
            .await
            .expect("the agent signs in");
        assert!(run(agent.session(), examples).await.join("").contains("Omar Haddad"));
        assert_eq!(
            run(&db, "SELECT VALUE private FROM query_example WHERE private").await,
            ["[true]"]
        );
    });
}

/// Queries made from the schema's own routes and relations, run in a random customer's session,
/// return exactly the rows the owner computes for that customer: the owner's answer to the same
/// query, kept to the ids whose owner route (from the IR) reaches the customer.
#[test]
fn generated_queries_see_exactly_the_users_rows() {
    use proptest::prelude::*;
    use proptest::test_runner::{Config, TestRunner};
    let output = store();
    let schema = &output.schema;
    let end_user = &schema.settings.scope.as_ref().unwrap().end_user;
    let queries = route_queries(schema);
    assert!(queries.len() >= 10, "{queries:?}");
    let rt = tokio::runtime::Runtime::new().unwrap();
    let users = ["mei", "omar", "lena", "sam", "ines"];
    let (db, sessions) = rt.block_on(async {
        let db = loaded(&[&output.schema_surql, &read(root().join("schemas/store.seed.surql"))]).await;
        let mut sessions = Vec::new();
        for u in users {
            sessions.push(scope(&format!("{end_user}:{u}")).signin(&db, KEY).await.unwrap());
        }
        (db, sessions)
    });
    let ids = |session: &surqlc::db::Db, query: &str| {
        let answer = rt.block_on(run(session, &format!("RETURN {query}")));
        let value: serde_json::Value =
            serde_json::from_str(&answer[0]).unwrap_or_else(|_| panic!("{query}: {answer:?}"));
        let mut ids: Vec<String> = value
            .as_array()
            .unwrap()
            .iter()
            .map(|v| v.as_str().unwrap().to_owned())
            .collect();
        ids.sort();
        ids
    };
    let mut runner = TestRunner::new(Config {
        cases: 64,
        failure_persistence: None,
        ..Config::default()
    });
    runner
        .run(&(0..users.len(), 0..queries.len()), |(u, q)| {
            let (table, query) = &queries[q];
            let user = format!("{end_user}:{}", users[u]);
            let condition = if table == end_user {
                format!("id = {user}")
            } else {
                let route = schema
                    .tables
                    .iter()
                    .find(|t| &t.name == table)
                    .unwrap()
                    .owner
                    .clone()
                    .unwrap();
                format!("{user} IN array::flatten([{route}])")
            };
            let theirs = ids(&db, &format!("(SELECT VALUE id FROM {table} WHERE {condition})"));
            let limited = query.contains("LIMIT");
            let expected: Vec<String> = if limited {
                let mut all = theirs.clone();
                all.reverse();
                let mut top: Vec<String> = all.into_iter().take(2).collect();
                top.sort();
                top
            } else {
                ids(&db, query).into_iter().filter(|id| theirs.contains(id)).collect()
            };
            let seen = ids(
                sessions[u].session(),
                &if limited { format!("({query})") } else { query.clone() },
            );
            prop_assert_eq!(seen, expected, "{} as {}", query, user);
            Ok(())
        })
        .unwrap();
}

/// The store's types with `scope(...)` and the given `owner` on `Purchase`.
fn store_with_purchase_owner(owner: &str) -> String {
    format!(
        r#"#[derive(Schema)]
#[surqlc(scope(end_user = Customer))]
pub struct Shop;
#[derive(Table)]
pub struct Customer {{ pub name: String }}
#[derive(Table)]
#[surqlc(owner = "{owner}")]
pub struct Purchase {{ pub total: u32, pub note: String }}
#[derive(Table)]
#[surqlc(shared)]
pub struct Product {{ pub name: String }}
#[derive(Relation)]
#[surqlc(owner = "in")]
pub struct Placed {{ pub r#in: Link<Customer>, pub out: Link<Purchase> }}
#[derive(Relation)]
#[surqlc(owner = "in<-placed<-customer")]
pub struct Contains {{ pub r#in: Link<Purchase>, pub out: Link<Product> }}
"#
    )
}

/// `(line, column, message)` of each error compiling `text`.
fn route_errors(text: &str) -> Vec<(usize, usize, String)> {
    let file = surqlc::front::SourceFile {
        path: "schemas/shop.rs".into(),
        text: text.to_owned(),
    };
    match surqlc::front::compile(&[file]) {
        Ok(_) => Vec::new(),
        Err(d) => d.0.into_iter().map(|d| (d.line, d.column, d.message)).collect(),
    }
}

/// A route that does not reach the end user is an error at the step that goes wrong.
#[test]
fn every_owner_route_is_checked_step_by_step() {
    assert!(route_errors(&store_with_purchase_owner("<-placed<-customer")).is_empty());
    // Line 7 holds `#[surqlc(owner = "...")]`; the route starts at column 19.
    for (route, column, fragment) in [
        ("->placed->customer", 19, "`->placed` does not start at `purchase`: `placed` goes from customer to purchase; follow it the other way with `<-placed`"),
        ("<-placd<-customer", 19, "`placd` is not a relation in this schema; did you mean `placed`?"),
        ("<-placed<-product", 27, "`placed` edges lead in to customer, not to `product`"),
        ("<-placed", 27, "the route ends on `placed` edges; add `<-customer`"),
        ("note", 19, "`purchase.note` is not a record link"),
        ("total.x", 19, "`purchase.total` is not a record link"),
        ("buyer", 19, "`purchase` has no field `buyer`"),
        ("->contains->product", 19, "reaches `product`, not the end-user table `customer`"),
        ("<-placed WHERE x", 27, "expected `.field`, `->name` or `<-name` here"),
    ] {
        let found = route_errors(&store_with_purchase_owner(route));
        assert_eq!(found.len(), 1, "{route}: {found:#?}");
        let (line, col, message) = &found[0];
        assert!(message.contains(fragment), "{route}: {message}");
        assert_eq!((*line, *col), (7, column), "{route}: {message}");
    }
    // `owner` without a scope, and a scope whose end user is not a table.
    let no_scope =
        store_with_purchase_owner("<-placed<-customer").replace("#[surqlc(scope(end_user = Customer))]\n", "");
    let found = route_errors(&no_scope);
    assert!(
        found
            .iter()
            .all(|(_, _, m)| m.contains("`owner` needs a per-user agent")
                || m.contains("`shared` only means something to a per-user agent")),
        "{found:#?}"
    );
    let wrong_user =
        store_with_purchase_owner("<-placed<-customer").replace("end_user = Customer", "end_user = Client");
    let found = route_errors(&wrong_user);
    assert!(
        found
            .iter()
            .any(|(_, _, m)| m.contains("`Client` is not a table in this schema")),
        "{found:#?}"
    );
}

/// With `prune(...)` too: value-linking rows of owned tables stay with the agent, and mei's pruned
/// prompt is built from what she may read.
#[test]
fn pruning_value_links_of_owned_tables_stay_with_the_agent() {
    let source = crate::pruning::pruned_store("prune(budget = 150)");
    let output = surqlc::Builder::new()
        .schema(schema_file("scope_pruned", &source))
        .cargo_metadata(false)
        .agent_password(PASSWORD)
        .scope_key(KEY)
        .generate()
        .unwrap_or_else(|e| panic!("{e}"));
    block_on(async {
        let db = loaded(&[
            &output.schema_surql,
            &read(root().join("schemas/store.seed.surql")),
            "RETURN fn::pruned_index_values()",
        ])
        .await;
        let all = run(&db, "SELECT VALUE val FROM schema_doc_value").await.join("");
        assert!(all.contains("Omar Haddad"), "the owner's index holds every name: {all}");
        let mei = scope("customer:mei").signin(&db, KEY).await.expect("mei signs in");
        let hers = one(&mei, "SELECT VALUE val FROM schema_doc_value").await;
        assert!(!hers.contains("Mei Tanaka"), "owned values stay with the agent: {hers}");
        assert!(hers.contains("Compact Soundbar"), "shared values are linked: {hers}");
        let prompt = one(
            &mei,
            "RETURN fn::nl2surql_prompt_pruned('What did I order from Omar Haddad?', [0.1, 0.9, 0.0, 0.1])",
        )
        .await;
        assert!(prompt.contains("signed-in customer"), "{prompt}");
        for other in ["Sam Carter", "Lena", "customer:omar", "purchase:p2"] {
            assert!(!prompt.contains(other), "{other} in mei's pruned prompt: {prompt}");
        }
    });
}

/// Queries that return ids of one owned table, made from the schema alone: each owned table's
/// rows (whole and `ORDER BY id DESC LIMIT 2`), and every traversal from a shared table across a
/// relation into an owned one (or onto an owned relation's edges). `(owned table, query)`.
fn route_queries(schema: &surqlc::ir::Schema) -> Vec<(String, String)> {
    let end_user = &schema.settings.scope.as_ref().unwrap().end_user;
    // Each query returns ids of `table` (an owned one): its rows, or reached from a shared table.
    let mut queries: Vec<(String, String)> = Vec::new();
    let owned = |name: &str| name == end_user || schema.tables.iter().any(|t| t.name == name && t.owner.is_some());
    for t in schema.tables.iter().filter(|t| owned(&t.name)) {
        queries.push((t.name.clone(), format!("SELECT VALUE id FROM {}", t.name)));
        queries.push((
            t.name.clone(),
            format!("SELECT VALUE id FROM {} ORDER BY id DESC LIMIT 2", t.name),
        ));
    }
    for r in &schema.tables {
        let surqlc::ir::TableKind::Relation { from, to } = &r.kind else {
            continue;
        };
        for (near, far, arrow) in [(to, from, "<-"), (from, to, "->")] {
            for shared in near.iter().filter(|n| !owned(n)) {
                if owned(&r.name) {
                    queries.push((
                        r.name.clone(),
                        format!("array::flatten(SELECT VALUE {arrow}{} FROM {shared})", r.name),
                    ));
                }
                for end in far.iter().filter(|f| owned(f)) {
                    queries.push((
                        end.clone(),
                        format!(
                            "array::distinct(array::flatten(SELECT VALUE {arrow}{}{arrow}{end} FROM {shared}))",
                            r.name
                        ),
                    ));
                }
            }
        }
    }
    queries
}
