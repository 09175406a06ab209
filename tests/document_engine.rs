//! What SurrealDB 3.3.5 does with views, user functions and `FROM ONLY`, proven on the embedded engine: the behaviour surqlc's views, functions and ONLY check rely on.

use surqlc::db;
use surqlc_tests::{block_on, loaded};

const SCHEMA: &str = r#"
DEFINE TABLE OVERWRITE order SCHEMAFULL;
DEFINE FIELD OVERWRITE seller ON order TYPE string;
DEFINE FIELD OVERWRITE total ON order TYPE decimal;
DEFINE FIELD OVERWRITE placed_at ON order TYPE datetime;
DEFINE FIELD OVERWRITE email ON order TYPE string;
DEFINE INDEX OVERWRITE order_email ON order FIELDS email UNIQUE;
DEFINE TABLE OVERWRITE monthly SCHEMAFULL AS SELECT time::group(placed_at, 'month') AS month, seller, count() AS orders, math::sum(total) AS revenue FROM order GROUP BY month, seller;
DEFINE FIELD OVERWRITE month ON monthly TYPE datetime COMMENT 'The month';
DEFINE FIELD OVERWRITE seller ON monthly TYPE string;
DEFINE FIELD OVERWRITE orders ON monthly TYPE int;
DEFINE FIELD OVERWRITE revenue ON monthly TYPE decimal;
DEFINE FUNCTION OVERWRITE fn::pound_to_usd($price: number) -> number { RETURN $price * 1.27; } COMMENT 'Pounds to dollars';
DEFINE FUNCTION OVERWRITE fn::no_perm($x: int) -> int { RETURN $x; } PERMISSIONS NONE;
"#;

const DATA: &str = r#"
CREATE order:1 SET seller = 'ann', total = 10dec, placed_at = d'2026-01-05T00:00:00Z', email = 'a@x';
CREATE order:2 SET seller = 'ann', total = 5dec, placed_at = d'2026-01-07T00:00:00Z', email = 'b@x';
CREATE order:3 SET seller = 'bob', total = 7dec, placed_at = d'2026-02-01T00:00:00Z', email = 'c@x';
"#;

async fn show(db: &db::Db, q: &str) {
    match db::query_json(db, q).await {
        Ok(v) => eprintln!("OK   {q}\n  => {v}"),
        Err(e) => eprintln!("ERR  {q}\n  => {e}"),
    }
}

#[test]
fn probe() {
    block_on(async {
        let db = loaded(&[SCHEMA, DATA]).await;
        for q in [
            "INFO FOR TABLE monthly",
            "(INFO FOR DB).tables.monthly",
            "(INFO FOR DB).functions",
            "INFO FOR DB STRUCTURE",
            "SELECT * FROM monthly",
            "SELECT VALUE count() FROM ONLY order GROUP ALL",
            "SELECT count() FROM ONLY order GROUP ALL",
            "SELECT * FROM ONLY order WHERE id = order:1",
            "SELECT * FROM ONLY order WHERE id = order:9",
            "SELECT * FROM ONLY order WHERE email = 'a@x'",
            "SELECT * FROM ONLY order WHERE seller = 'bob'",
            "SELECT * FROM ONLY order WHERE seller = 'ann'",
            "SELECT * FROM ONLY order LIMIT 1",
            "SELECT * FROM ONLY order LIMIT 2",
            "SELECT seller FROM ONLY order GROUP BY seller",
            "SELECT * FROM ONLY order:1",
            "SELECT * FROM ONLY order:1..3",
            "SELECT * FROM ONLY [order:1]",
            "SELECT * FROM ONLY order:9",
            "SELECT * FROM ONLY order WHERE id = order:1 AND seller = 'ann'",
            "SELECT * FROM ONLY order WHERE id IN [order:1]",
            "SELECT VALUE array::distinct(seller) FROM order GROUP ALL",
            "SELECT array::group(seller) AS s FROM order GROUP ALL",
            "SELECT fn::pound_to_usd(total) AS usd FROM order",
            "SELECT fn::pound_to_usd(total, 1) AS usd FROM order",
            "SELECT fn::pound_to_usd('x') AS usd FROM order",
        ] {
            show(&db, q).await;
        }
        // the functions' permissions for a VIEWER
        db::execute(&db, "DEFINE USER OVERWRITE viewer ON DATABASE PASSWORD 'pw-viewer-1' ROLES VIEWER;").await.unwrap();
    });
}
