//! The engine behaviours the analyzer's condition and value checks rest on (SurrealDB 3.3.5, embedded): what a non-boolean or constant condition, a quoted field name, a regex cast, an optional value in arithmetic, a GeoJSON object of the wrong shape, a constant argument out of a function's contract and a typed closure answer.

use crate::app_engine::run;
use serde_json::json;
use surqlc::db::Db;
use surqlc_tests::*;

/// A schema written as SurrealQL, so each engine rule is proven on the statement itself.
const PROBE: &str = r#"
DEFINE TABLE item SCHEMAFULL;
DEFINE FIELD name ON item TYPE string;
DEFINE FIELD status ON item TYPE "paid" | "open";
DEFINE FIELD price ON item TYPE decimal;
DEFINE FIELD rating ON item TYPE option<int>;
DEFINE FIELD done ON item TYPE option<datetime>;
DEFINE FIELD made ON item TYPE datetime;
DEFINE FIELD tags ON item TYPE array<object>;
DEFINE FIELD tags[*].label ON item TYPE string;
DEFINE FIELD tags[*].weight ON item TYPE int;
DEFINE FIELD spot ON item TYPE option<geometry<point>>;
DEFINE FIELD nick ON item TYPE option<string>;
CREATE item:a SET name = 'a', status = 'paid', price = 10dec, rating = 4, nick = 'ay', made = d'2024-01-01T00:00:00Z',
    done = d'2024-01-03T00:00:00Z', tags = [{ label: 'x', weight: 0 }, { label: 'y', weight: 2 }];
CREATE item:b SET name = 'b', status = 'open', price = 0dec, made = d'2024-02-01T00:00:00Z', tags = [];
"#;

async fn probe_db() -> Db {
    loaded(&[PROBE]).await
}

async fn answers(db: &Db, q: &str) -> serde_json::Value {
    run(db, q, json!({}))
        .await
        .unwrap_or_else(|e| panic!("`{q}` failed: {e}"))
}

async fn fails(db: &Db, q: &str) -> String {
    match run(db, q, json!({})).await {
        Err(e) => e,
        Ok(v) => panic!("the engine answered `{q}` without an error: {v}"),
    }
}

#[test]
fn conditions_that_are_no_booleans_take_truthiness() {
    block_on(async {
        let db = probe_db().await;
        let all = json!(["a", "b"]);
        // A number, a string, a non-boolean expression: every row where it is truthy matches.
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE 1 ORDER BY name").await,
            all
        );
        assert_eq!(answers(&db, "SELECT VALUE name FROM item WHERE 0").await, json!([]));
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE 'open' ORDER BY name").await,
            all
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE price * 2").await,
            json!(["a"])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE string::len(name) ORDER BY name").await,
            all
        );
        // In a filter the same: `[WHERE weight]` keeps the elements whose weight is not 0.
        assert_eq!(
            answers(&db, "SELECT VALUE tags[WHERE weight].label FROM item:a").await,
            json!([["y"]])
        );
        // In an IF guard: a string is truthy.
        assert_eq!(answers(&db, "RETURN IF 'no' THEN 1 ELSE 2 END").await, json!(1));
    });
}

#[test]
fn constant_conditions_answer_the_same_for_every_row() {
    block_on(async {
        let db = probe_db().await;
        let all = json!(["a", "b"]);
        // A quoted field name is a string: compared with a value, the same for every row.
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE 'status' = 'paid'").await,
            json!([])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE status = 'paid'").await,
            json!(["a"])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE \"status\" = 'paid'").await,
            json!([])
        );
        // A string is greater than every number (type order): `'price' > 5` holds for every row.
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE 'price' > 5 ORDER BY name").await,
            all
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE price > 5").await,
            json!(["a"])
        );
        // A quoted date field compared with a value computed from no row: the same.
        let same = answers(
            &db,
            "SELECT VALUE name FROM item WHERE 'made' > time::now() - 3650d ORDER BY name",
        )
        .await;
        assert!(same == json!([]) || same == all, "{same}");
        // In a filter and in the application's writes alike.
        assert_eq!(
            answers(&db, "SELECT VALUE tags[WHERE 'label' = 'x'] FROM item:a").await,
            json!([[]])
        );
        // A comparison of two constants.
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE 1 = 1 ORDER BY name").await,
            all
        );
        assert_eq!(answers(&db, "SELECT VALUE name FROM item WHERE 1 > 2").await, json!([]));
        // A FOR over an empty list: the body never runs.
        answers(&db, "FOR $i IN [] { UPDATE $i SET price = 99 }").await;
        assert_eq!(
            answers(&db, "SELECT VALUE price FROM item WHERE price = 99").await,
            json!([])
        );
        // An IF guard of two constants: one branch, whatever the row.
        assert_eq!(
            answers(
                &db,
                "SELECT VALUE IF 1 > 2 THEN 'big' ELSE 'small' END FROM item ORDER BY name"
            )
            .await,
            json!(["small", "small"])
        );
    });
}

#[test]
fn a_regex_cast_of_a_pattern_that_does_not_compile_fails() {
    block_on(async {
        let db = probe_db().await;
        let e = fails(&db, "SELECT VALUE name FROM item WHERE name = <regex> '(a'").await;
        assert!(e.contains("regex"), "{e}");
        let e = fails(&db, "RETURN <regex> '[a-'").await;
        assert!(e.contains("regex"), "{e}");
        // A pattern that compiles is a regex, and matches.
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE name = <regex> '^(a|c)$'").await,
            json!(["a"])
        );
        // Only the pattern decides: `\/` is an escaped slash, `\d` a digit class.
        answers(&db, r"RETURN <regex> 'a\\/b\\d+'").await;
        // A number is no pattern; a string argument taken as a regex fails the same way.
        fails(&db, "RETURN <regex> 5").await;
        let e = fails(&db, "SELECT VALUE string::matches(name, '(a') FROM item").await;
        assert!(e.contains("Could not cast into `regex`"), "{e}");
    });
}

#[test]
fn an_optional_value_in_arithmetic_fails_at_the_first_row_without_it() {
    block_on(async {
        let db = probe_db().await;
        // item:b has no rating nor done: NONE in arithmetic fails the whole query.
        let e = fails(&db, "SELECT VALUE rating + 1 FROM item ORDER BY name").await;
        assert!(e.contains("Cannot perform addition with 'none' and 'int'"), "{e}");
        fails(&db, "SELECT VALUE rating * 2 FROM item").await;
        let e = fails(&db, "SELECT VALUE done - made FROM item").await;
        assert!(e.contains("'none'"), "{e}");
        let e = fails(&db, "SELECT VALUE nick + '!' FROM item").await;
        assert!(e.contains("'none'"), "{e}");
        // Kept from NONE by the WHERE, or given a default: the query answers.
        assert_eq!(
            answers(&db, "SELECT VALUE rating + 1 FROM item WHERE rating != NONE").await,
            json!([5])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE (rating ?? 0) + 1 FROM item ORDER BY name").await,
            json!([5, 1])
        );
        // Under GROUP an aggregate skips what fails as NONE (the engine's `or_none`).
        assert_eq!(
            answers(&db, "SELECT math::sum(rating * 2) AS s FROM item GROUP ALL").await,
            json!([{ "s": 8 }])
        );
    });
}

#[test]
fn a_geojson_object_of_another_shape_is_no_geometry() {
    block_on(async {
        let db = probe_db().await;
        let is = |shape: &str| format!("RETURN type::is_geometry({shape})");
        assert_eq!(
            answers(&db, &is("{ type: 'Point', coordinates: [1.5, 2.5] }")).await,
            json!(true)
        );
        assert_eq!(
            answers(&db, &is("{ type: 'Point', coordinates: [-0.12, 51.5] }")).await,
            json!(true)
        );
        for wrong in [
            "{ type: 'Point', coordinates: [1.5] }",
            "{ type: 'Point', coordinates: [1.5, 2.5, 3.5] }",
            "{ type: 'Point', coordinates: [1.5dec, 2.5dec] }",
            "{ type: 'Point', coordinate: [1.5, 2.5] }",
            "{ type: 'LineString', coordinates: [1.5, 2.5] }",
            "{ type: 'Polygon', coordinates: [[1.5, 2.5], [3.5, 4.5]] }",
        ] {
            assert_eq!(answers(&db, &is(wrong)).await, json!(false), "{wrong}");
        }
        assert_eq!(
            answers(
                &db,
                &is("{ type: 'Polygon', coordinates: [[[0, 0], [1, 0], [1, 1], [0, 0]]] }")
            )
            .await,
            json!(true)
        );
        // A geo function fails on it; a geometry field refuses it; a comparison never matches.
        let e = fails(
            &db,
            "RETURN geo::distance({ type: 'Point', coordinates: [1.5] }, (0.0, 0.0))",
        )
        .await;
        assert!(e.contains("Expected `geometry`"), "{e}");
        answers(
            &db,
            "RETURN geo::distance({ type: 'Point', coordinates: [1.5, 2.0] }, (0.0, 0.0))",
        )
        .await;
        fails(&db, "UPDATE item:a SET spot = { type: 'Point', coordinates: [1.5] }").await;
        answers(
            &db,
            "UPDATE item:a SET spot = { type: 'Point', coordinates: [1.5, 2.0] }",
        )
        .await;
        assert_eq!(
            answers(
                &db,
                "SELECT VALUE name FROM item WHERE spot = { type: 'Point', coordinates: [1.5] }"
            )
            .await,
            json!([])
        );
    });
}

#[test]
fn constant_arguments_out_of_a_functions_contract_fail() {
    block_on(async {
        let db = probe_db().await;
        for (q, says) in [
            ("RETURN math::fixed(1.2345, -1)", "greater than 0"),
            ("RETURN math::fixed(1.2345, 0)", "greater than 0"),
            ("SELECT VALUE math::fixed(price, -1) FROM item", "greater than 0"),
            ("RETURN math::top([1, 2, 3], 0)", "greater than 0"),
            ("RETURN math::bottom([1, 2, 3], -2)", "greater than 0"),
            ("RETURN math::clamp(5, 10, 1)", "Lowerbound"),
            ("RETURN time::group(d'2024-01-01T00:00:00Z', 'week')", "can be one of"),
            ("SELECT VALUE time::group(made, 'months') FROM item", "can be one of"),
        ] {
            let e = fails(&db, q).await;
            assert!(e.contains(says), "{q}: {e}");
        }
        let e = fails(&db, "RETURN string::repeat('a', -1)").await;
        assert!(e.contains("negative"), "{e}");
        let e = fails(&db, "RETURN rand::int(10, 1)").await;
        assert!(e.contains("Lowerbound"), "{e}");
        // Out of range elsewhere answers without an error (not reported as a failure).
        assert_eq!(
            answers(&db, "RETURN math::percentile([1, 2, 3], 150)").await,
            json!(null)
        );
        assert_eq!(answers(&db, "RETURN array::at([1, 2], 5)").await, json!(null));
        assert_eq!(answers(&db, "RETURN math::fixed(1.2345, 2)").await, json!(1.23));
        assert_eq!(answers(&db, "RETURN math::top([1, 2, 3], 1)").await, json!([3]));
        assert_eq!(answers(&db, "RETURN math::clamp(5, 1, 10)").await, json!(5));
        answers(&db, "SELECT VALUE time::group(made, 'month') FROM item").await;
        // `type::field` of a name the rows lack reads NONE (null in JSON) in every row, no error.
        assert_eq!(
            answers(&db, "SELECT VALUE type::field('staus') FROM item ORDER BY name").await,
            json!([null, null])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE type::field('status') FROM item ORDER BY name").await,
            json!(["paid", "open"])
        );
        assert_eq!(
            answers(
                &db,
                "SELECT VALUE type::fields(['name', 'staus']) FROM item ORDER BY name"
            )
            .await,
            json!([["a", null], ["b", null]])
        );
        assert_eq!(
            answers(&db, "SELECT VALUE name FROM item WHERE type::field('staus') = 'paid'").await,
            json!([])
        );
    });
}

#[test]
fn a_typed_closure_returning_another_kind_fails() {
    block_on(async {
        let db = probe_db().await;
        for q in [
            "RETURN array::map([1, 2], |$x: int| -> string { $x + 1 })",
            "RETURN array::map([1, 2], |$x: int| -> bool { $x + 1 })",
            "RETURN array::map(['a'], |$x: string| -> string { string::len($x) })",
            "RETURN (|$x: int| -> string { $x + 1 })(1)",
        ] {
            let e = fails(&db, q).await;
            assert!(e.contains("Couldn't coerce return value"), "{q}: {e}");
        }
        // Numbers coerce into each other (a whole float into an int), and a cast converts.
        for q in [
            "RETURN array::map([1, 2], |$x: int| -> int { $x + 1 })",
            "RETURN array::map([1, 2], |$x: int| -> float { $x + 1 })",
            "RETURN array::map([1, 2], |$x: int| -> number { $x + 1 })",
            "RETURN array::map([1, 2], |$x: int| -> decimal { $x + 1 })",
            "RETURN array::map([1.5], |$x: float| -> int { $x * 2 })",
            "RETURN array::map([1, 2], |$x: int| -> string { <string> $x })",
            "RETURN array::map(['a'], |$x: string| -> int { string::len($x) })",
        ] {
            answers(&db, q).await;
        }
    });
}

fn schema(name: &str) -> surqlc::ir::Schema {
    let path = root().join("schemas").join(format!("{name}.rs"));
    surqlc::front::compile(&[surqlc::front::SourceFile::read(path).unwrap()]).unwrap()
}

/// The right neighbours of each kind pass with no finding at all (the agent's profile, and the
/// application's where the query is a write).
#[test]
fn the_checks_leave_right_queries_alone() {
    use surqlc::validate::{self, Options};
    let store = schema("store");
    let enterprise = schema("enterprise");
    let clean = |schema: &surqlc::ir::Schema, q: &str, app: bool| {
        let options = if app { Options::for_app() } else { Options::of(schema) };
        let report = validate::validate_with(schema, q, &options);
        assert!(report.diagnostics.is_empty(), "{q}\n{}", report.render(q));
    };
    for q in [
        "SELECT name FROM product WHERE price > 100 AND category = 'audio' LIMIT 5",
        "SELECT name FROM product WHERE string::len(name) > 10 LIMIT 5",
        "SELECT name, ->placed->purchase[WHERE status = 'shipped'] AS shipped FROM customer LIMIT 5",
        "SELECT name, IF price > 100 THEN 'big' ELSE 'small' END AS size FROM product LIMIT 5",
        "SELECT name, IF ->placed->purchase THEN 'buyer' ELSE 'new' END AS kind FROM customer LIMIT 5",
        "SELECT name FROM customer WHERE name = <regex> '^[A-M]' LIMIT 5",
        "SELECT name FROM customer WHERE string::matches(name, '^M') LIMIT 5",
        "SELECT name, math::fixed(price, 2) AS p, type::field('category') AS c FROM product LIMIT 5",
        "SELECT time::group(placed_at, 'month') AS m FROM purchase LIMIT 5",
        "SELECT name, array::map([1, 2], |$n: int| -> float { $n * 1.5 }) AS xs FROM product LIMIT 2",
        "SELECT name, geo::distance({ type: 'Point', coordinates: [-0.12, 51.5] }, (2.35, 48.85)) AS km FROM customer LIMIT 2",
    ] {
        clean(&store, q, false);
    }
    for q in [
        "UPDATE product SET price = 10 WHERE $mode = 'name' OR category = 'home'",
        "IF $limit > 10 { RETURN 1 } ELSE { RETURN 2 }",
        "FOR $p IN $products { UPDATE $p SET price = 10 }",
    ] {
        clean(&store, q, true);
    }
    for q in [
        "SELECT name, rating + 1 AS next FROM supplier WHERE rating != NONE LIMIT 5",
        "SELECT name, (rating ?? 0) * 20 AS percent FROM supplier LIMIT 5",
        "SELECT category, math::sum(rating * 2) AS total FROM supplier GROUP BY category LIMIT 5",
    ] {
        clean(&enterprise, q, false);
    }
}
