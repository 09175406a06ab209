//! The engine behaviours issue 54's SELECT checks rest on (SurrealDB 3.3.5, embedded, with the example schemas' seeds): FETCH acts on the answered rows, GROUP BY sorts its groups, projections are written into each other's keys, ONLY over two record ids, `$before` outside a write, an unbounded recursion over a cycle; and the validator's verdict on each form.

use serde_json::Value;
use surqlc::db::Db;
use surqlc::front::{compile, SourceFile};
use surqlc::ir::Schema;
use surqlc::validate::{self, Class};
use surqlc_tests::*;

async fn seeded(name: &str) -> (Schema, Db) {
    let schema = compile(&[SourceFile::read(root().join("schemas").join(format!("{name}.rs"))).unwrap()]).unwrap();
    let output = builder(name).no_agent().generate().unwrap();
    let seed = read(root().join("schemas").join(format!("{name}.seed.surql")));
    (schema, loaded(&[&output.schema_surql, &seed]).await)
}

async fn answer(db: &Db, q: &str) -> Value {
    surqlc::db::query_json(db, q)
        .await
        .unwrap_or_else(|e| panic!("`{q}` failed: {e}"))
}

async fn failure(db: &Db, q: &str) -> String {
    match surqlc::db::query_json(db, q).await {
        Err(e) => e.to_string(),
        Ok(v) => panic!("the engine answered `{q}`: {v}"),
    }
}

/// The classes the validator reports on `q` (the agent's profile, or the application's).
fn classes(schema: &Schema, q: &str, app: bool) -> Vec<Class> {
    let options = if app {
        validate::Options::for_app()
    } else {
        validate::Options::of(schema)
    };
    let report = validate::validate_with(schema, q, &options);
    report
        .diagnostics
        .iter()
        .filter(|d| d.class != Class::Limit)
        .map(|d| d.class)
        .collect()
}

#[test]
fn fetch_acts_on_the_answered_rows() {
    block_on(async {
        let (store, db) = seeded("store").await;
        // The query: the alias of a traversal is fetched, and the validator passes it.
        let q = "SELECT name, ->placed->purchase AS orders FROM customer:mei FETCH orders";
        assert!(answer(&db, q).await[0]["orders"][0]["status"].is_string());
        assert!(classes(&store, q, false).is_empty() && classes(&store, q, true).is_empty());
        let q = "SELECT name, ->placed->purchase->contains->product AS bought FROM customer:mei FETCH bought";
        assert!(answer(&db, q).await[0]["bought"][0]["price"].is_string());
        assert!(classes(&store, q, false).is_empty());
        // An alias nested in the row, and a path into an object the projection builds.
        for q in [
            "SELECT ->placed->purchase AS a.b FROM customer:mei FETCH a.b",
            "SELECT name, {o: ->placed->purchase} AS x FROM customer:mei FETCH x.o",
        ] {
            let v = answer(&db, q).await;
            assert!(v.to_string().contains("\"status\""), "{q}: {v}");
            assert!(classes(&store, q, false).is_empty(), "{q}");
        }
        // A graph step is no key of the row: the same answer as without FETCH.
        let plain = answer(&db, "SELECT name, ->placed->purchase FROM customer:mei").await;
        let q = "SELECT name, ->placed->purchase FROM customer:mei FETCH ->placed->purchase";
        assert_eq!(answer(&db, q).await, plain);
        assert_eq!(classes(&store, q, false), [Class::NoOpClause]);
        // A record field under its alias: FETCH the alias fetches, FETCH the field does nothing.
        let q = "SELECT in AS who FROM placed WHERE in = customer:mei LIMIT 1 FETCH who";
        assert!(answer(&db, q).await[0]["who"]["name"].is_string());
        assert!(classes(&store, q, false).is_empty());
        let q = "SELECT in AS who FROM placed WHERE in = customer:mei LIMIT 1 FETCH in";
        assert!(answer(&db, q).await[0]["who"].is_string());
        assert_eq!(classes(&store, q, false), [Class::NoOpClause]);
        // A field that does not exist stays UnknownField.
        let q = "SELECT name, ->placed->purchase AS orders FROM customer:mei FETCH orders.nope";
        assert_eq!(classes(&store, q, false), [Class::UnknownField]);

        let (market, db) = seeded("marketplace").await;
        for (q, path) in [
            ("SELECT * FROM order:1 FETCH product.seller", "/0/product/seller/name"),
            ("SELECT product.seller AS s FROM order:1 FETCH s", "/0/s/name"),
            (
                "SELECT product FROM order:1 FETCH product.seller",
                "/0/product/seller/name",
            ),
            (
                "SELECT product.seller FROM order:1 FETCH product.seller",
                "/0/product/seller/name",
            ),
            ("SELECT product AS p FROM order:1 FETCH p.seller", "/0/p/seller/name"),
            ("SELECT * FROM order:1 FETCH product, seller", "/0/seller/name"),
        ] {
            let v = answer(&db, q).await;
            assert!(v.pointer(path).is_some_and(Value::is_string), "{q}: {v}");
            assert!(
                classes(&market, q, false).is_empty(),
                "{q}: {:?}",
                classes(&market, q, false)
            );
        }
        // A field the answer lacks: nothing to fetch.
        let q = "SELECT quantity FROM order:1 FETCH product";
        assert_eq!(answer(&db, q).await, answer(&db, "SELECT quantity FROM order:1").await);
        assert_eq!(classes(&market, q, false), [Class::NoOpClause]);
    });
}

#[test]
fn group_by_sorts_its_groups_by_their_keys_and_aggregates_only() {
    block_on(async {
        let (store, db) = seeded("store").await;
        let unsorted = answer(&db, "SELECT country, count() AS n FROM customer GROUP BY country").await;
        for q in [
            "SELECT country, count() AS n FROM customer GROUP BY country ORDER BY joined DESC",
            "SELECT country AS c, count() AS n FROM customer GROUP BY country ORDER BY country DESC",
        ] {
            let v = answer(&db, q).await;
            let keys: Vec<&Value> = v
                .as_array()
                .unwrap()
                .iter()
                .map(|r| r.get("country").or(r.get("c")).unwrap())
                .collect();
            let want: Vec<&Value> = unsorted.as_array().unwrap().iter().map(|r| &r["country"]).collect();
            assert_eq!(keys, want, "{q}: the groups' own order");
            assert_eq!(classes(&store, q, false), [Class::OrderByUngrouped], "{q}");
        }
        // A path into a group key's record is read through the link.
        let (market, mdb) = seeded("marketplace").await;
        let q = "SELECT seller, count() AS n FROM order GROUP BY seller ORDER BY seller.name DESC";
        assert_eq!(answer(&mdb, q).await[0]["seller"], "seller:toybox");
        assert!(classes(&market, q, false).is_empty(), "{q}");
        for q in [
            "SELECT country, count() AS n FROM customer GROUP BY country ORDER BY country DESC",
            "SELECT country AS c, count() AS n FROM customer GROUP BY country ORDER BY c DESC",
            "SELECT country, count() AS n FROM customer GROUP BY country ORDER BY n DESC",
        ] {
            let v = answer(&db, q).await;
            assert_ne!(v.as_array().unwrap()[0], unsorted.as_array().unwrap()[0], "{q} sorts");
            assert!(classes(&store, q, false).is_empty(), "{q}");
        }
    });
}

#[test]
fn projections_are_written_into_each_others_keys() {
    block_on(async {
        let (store, db) = seeded("store").await;
        let all = answer(&db, "SELECT * FROM customer:mei").await;
        // The same expression again answers one key, as once.
        for q in [
            "SELECT *, name AS name FROM customer:mei",
            "SELECT name, name FROM customer:mei",
        ] {
            assert!(classes(&store, q, false).is_empty(), "{q}");
        }
        assert_eq!(answer(&db, "SELECT *, name AS name FROM customer:mei").await, all);
        // Another expression under a name `*` answers replaces it.
        let q = "SELECT *, tier AS name FROM customer:mei";
        assert_eq!(answer(&db, q).await[0]["name"], "pro");
        assert_eq!(classes(&store, q, false), [Class::DuplicateAlias]);
        // A function of the field it replaces is a deliberate rewrite (applications' `record::id(id)
        // AS id`): the row holds the rewritten value, as asked, and nothing is reported.
        for (q, key, value) in [
            (
                "SELECT *, record::id(id) AS id FROM customer:mei",
                "id",
                serde_json::json!("mei"),
            ),
            (
                "SELECT *, string::uppercase(name) AS name FROM customer:mei",
                "name",
                serde_json::json!("MEI TANAKA"),
            ),
            (
                "SELECT *, <string>id AS id FROM customer:mei",
                "id",
                serde_json::json!("customer:mei"),
            ),
        ] {
            assert_eq!(answer(&db, q).await[0][key], value, "{q}");
            for app in [false, true] {
                assert!(classes(&store, q, app).is_empty(), "{q}");
            }
        }
        // A key inside another's: one of the two values is lost, whichever comes first.
        let q = "SELECT name AS info, country AS info.country FROM customer:mei";
        assert_eq!(answer(&db, q).await, serde_json::json!([{"info": {"country": "GB"}}]));
        assert_eq!(classes(&store, q, false), [Class::OverlappingProjection]);
        let q = "SELECT country AS info.country, name AS info FROM customer:mei";
        assert_eq!(answer(&db, q).await, serde_json::json!([{"info": "Mei Tanaka"}]));
        assert_eq!(classes(&store, q, false), [Class::OverlappingProjection]);

        let (market, db) = seeded("marketplace").await;
        // Through objects only: as `*` alone.
        for (q, plain) in [
            ("SELECT *, address.city FROM seller:ada", "SELECT * FROM seller:ada"),
            ("SELECT address.city, * FROM seller:ada", "SELECT * FROM seller:ada"),
            (
                "SELECT address, address.city FROM seller:ada",
                "SELECT address FROM seller:ada",
            ),
            (
                "SELECT images.url, images FROM product:atlas",
                "SELECT images FROM product:atlas",
            ),
        ] {
            assert_eq!(answer(&db, q).await, answer(&db, plain).await, "{q}");
            assert!(classes(&market, q, false).is_empty(), "{q}");
        }
        // Through an array every element is rewritten; through a record link the link is replaced.
        let q = "SELECT *, images.url FROM product:atlas";
        assert!(answer(&db, q).await[0]["images"][0]["url"].is_array());
        assert_eq!(classes(&market, q, false), [Class::OverlappingProjection]);
        let q = "SELECT images, images.url FROM product:atlas";
        assert!(answer(&db, q).await[0]["images"][1]["url"].is_array());
        assert_eq!(classes(&market, q, false), [Class::OverlappingProjection]);
        let q = "SELECT *, seller.name FROM product:atlas";
        assert_eq!(
            answer(&db, q).await[0]["seller"],
            serde_json::json!({"name": "Ada Books"})
        );
        assert_eq!(classes(&market, q, false), [Class::OverlappingProjection]);
    });
}

#[test]
fn only_over_two_records_fails_and_state_params_are_none_outside_a_write() {
    block_on(async {
        let (store, db) = seeded("store").await;
        for q in [
            "SELECT * FROM ONLY [customer:mei, customer:sam]",
            "SELECT * FROM ONLY customer:mei, customer:sam",
        ] {
            assert!(failure(&db, q).await.contains("Expected a single result output"), "{q}");
            assert_eq!(classes(&store, q, false), [Class::OnlyWithoutLimitOne], "{q}");
        }
        for q in [
            "SELECT * FROM ONLY [customer:mei]",
            "SELECT * FROM ONLY [customer:mei, customer:sam] LIMIT 1",
        ] {
            assert!(answer(&db, q).await["name"].is_string(), "{q}");
            assert!(classes(&store, q, false).is_empty(), "{q}");
        }
        // `$before` in a SELECT is NONE; `$parent` at the top level is the row itself.
        let q = "SELECT name, $before.name AS was FROM customer:mei";
        assert_eq!(answer(&db, q).await[0]["was"], Value::Null);
        assert_eq!(classes(&store, q, false), [Class::ParamOutOfContext]);
        let q = "SELECT name, $parent.name AS p FROM customer:mei";
        assert_eq!(answer(&db, q).await[0]["p"], "Mei Tanaka");
        assert!(classes(&store, q, false).is_empty());
        // In a write: NONE in SET (the application's profile takes the name as the caller's
        // parameter there, which the engine binds), the record's states in RETURN.
        let q = "UPDATE customer:mei SET name = $before.name + ' T'";
        assert!(failure(&db, q).await.contains("none"));
        let q = "UPDATE customer:omar SET tier = 'pro' RETURN $before.tier AS was, $after.tier AS now";
        assert_eq!(answer(&db, q).await, serde_json::json!([{"was": "plus", "now": "pro"}]));
        assert!(classes(&store, q, true).is_empty());
        // One parameter as a name and a row count: LIMIT refuses a string.
        let q = "SELECT name FROM customer WHERE name = $x LIMIT $x";
        assert_eq!(classes(&store, q, true), [Class::ConflictingParam]);
        let bound = db.query(q).bind(("x", "Mei Tanaka")).await.and_then(|r| r.check());
        assert!(bound.is_err());
    });
}

#[test]
fn an_unbounded_recursion_over_a_cycle_fails_at_the_limit() {
    block_on(async {
        let (enterprise, db) = seeded("enterprise").await;
        // Acyclic data: the recursion ends.
        let q = "SELECT name, @.{..}.parent AS root FROM product_category LIMIT 5";
        answer(&db, q).await;
        assert_eq!(classes(&enterprise, q, false), [Class::UnboundedRecursion]);
        let cycle = "UPDATE product_category:tools SET parent = product_category:kitchen; \
                     UPDATE product_category:kitchen SET parent = product_category:tools;";
        answer(&db, cycle).await;
        for q in [
            "SELECT name, @.{..}.parent AS root FROM product_category:tools",
            "SELECT name, @.{2..}.parent AS root FROM product_category:tools",
            "SELECT name, @.{..}(.parent) AS root FROM product_category:tools",
            "SELECT name, @.{..+path}.parent AS trail FROM product_category:tools",
        ] {
            assert!(failure(&db, q).await.contains("recursion limit of 256"), "{q}");
            assert_eq!(classes(&enterprise, q, false), [Class::UnboundedRecursion], "{q}");
        }
        for q in [
            "SELECT name, @.{1..5}.parent AS root FROM product_category:tools",
            "SELECT name, @.{..+collect}.parent AS seen FROM product_category:tools",
        ] {
            answer(&db, q).await;
            assert!(classes(&enterprise, q, false).is_empty(), "{q}");
        }
    });
}
