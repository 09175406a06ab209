//! The application's own queries (issue 51): named queries checked in the application's profile, every `$name` of their text an argument of the generated function or an error at its position, and the engine binding each as the function does.

use surqlc::validate::{self, params, Class, Options};
use surqlc_tests::*;

/// Every `$name` of a query's text, in order of first appearance.
fn dollar_names(text: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    let tokens = surqlc::surql::scan::code(text);
    for (i, t) in tokens.iter().enumerate() {
        let defined = i > 0 && (tokens[i - 1].is_word("let") || tokens[i - 1].is_word("for"));
        if t.kind == surqlc::surql::scan::Kind::Param && !defined && !out.contains(&t.text) {
            out.push(t.text.clone());
        }
    }
    out
}

#[test]
fn no_named_query_of_any_example_drops_a_parameter() {
    let mut checked = 0;
    for schema in schema_files() {
        let name = schema.file_stem().unwrap().to_string_lossy().into_owned();
        let dir = root().join("schemas").join(format!("{name}.queries"));
        if !dir.is_dir() {
            continue;
        }
        let output = builder(&name).no_agent().generate().unwrap();
        let ir = &output.schema;
        for q in &output.queries {
            let shape = q.shape.as_ref().unwrap_or_else(|| panic!("{}: untyped", q.named.name));
            let report = validate::validate_with(ir, &q.named.text, &Options::for_named_queries());
            let args: Vec<&str> = shape.params.iter().map(|p| p.name.as_str()).collect();
            let lets: Vec<String> = surqlc::surql::scan::code(&q.named.text)
                .windows(2)
                .filter(|w| w[0].is_word("let") || w[0].is_word("for"))
                .map(|w| w[1].text.clone())
                .collect();
            for n in dollar_names(&q.named.text) {
                let session = params::PROTECTED.contains(&n.as_str());
                let engine_only = report.engine_params.contains(&n) && !report.query_params.contains(&n);
                assert!(
                    args.contains(&n.as_str()) || session || engine_only || lets.contains(&n),
                    "{}: `${n}` is neither an argument ({args:?}) nor the engine's",
                    q.named.name
                );
            }
            checked += 1;
        }
    }
    assert!(checked >= 20, "{checked} named queries");
}

fn queries_dir(name: &str, text: &str) -> std::path::PathBuf {
    let dir = scratch_dir(name);
    std::fs::write(dir.join("q.surql"), text).unwrap();
    dir
}

#[test]
fn parent_before_and_value_are_the_applications_own_parameters_and_bind() {
    let dir = queries_dir(
        "app-parent",
        "-- name: app_children :many\nSELECT name FROM file WHERE parent = $parent ORDER BY name;\n\n\
         -- name: app_named_like :many\nSELECT VALUE name FROM file WHERE name = $value AND created_at < $before;\n",
    );
    let output = builder("memory").no_agent().queries(&dir).generate().unwrap();
    let find = |n: &str| output.queries.iter().find(|q| q.named.name == n).unwrap();
    let children = find("app_children").shape.as_ref().unwrap();
    assert_eq!(children.params.len(), 1, "$parent is an argument");
    assert_eq!(children.params[0].name, "parent");
    let named = find("app_named_like").shape.as_ref().unwrap();
    let names: Vec<&str> = named.params.iter().map(|p| p.name.as_str()).collect();
    assert_eq!(names, ["value", "before"]);
    // And the engine binds them as the function does (tests/app_engine.rs proves every name).
    block_on(async {
        let generated = builder("memory").no_agent().generate().unwrap();
        let seed = read(root().join("schemas/memory.seed.surql"));
        let db = loaded(&[&generated.schema_surql, &seed]).await;
        let mut response = db
            .query(&find("app_children").named.text)
            .bind(("parent", surrealdb::types::RecordId::new("file", "projects")))
            .await
            .unwrap()
            .check()
            .unwrap();
        let rows: surrealdb::types::Value = response.take(0).unwrap();
        let rows = rows.into_json_value();
        assert!(rows.as_array().is_some_and(|r| !r.is_empty()), "{rows}");
    });
}

#[test]
fn a_protected_parameter_is_an_error_at_its_position() {
    let dir = queries_dir(
        "app-protected",
        "-- name: app_by_token :opt\nSELECT name FROM customer\n  WHERE name = $token LIMIT 1;\n",
    );
    let e = builder("store").no_agent().queries(&dir).generate().unwrap_err();
    let lines = e.cargo_error_lines();
    let want = format!("{}:3:16:", dir.join("q.surql").display());
    assert!(
        lines
            .iter()
            .any(|l| l.starts_with(&want) && l.contains("`$token`") && l.contains("rename")),
        "{lines:#?}"
    );
}

#[test]
fn the_engines_row_names_are_not_arguments() {
    let schema = builder("store").no_agent().generate().unwrap().schema;
    // `$this` in a row, `$parent` in a subquery: the engine's; at the top level: the caller's.
    let q = "SELECT name, (SELECT VALUE status FROM purchase WHERE $parent.id != NONE LIMIT 1) AS s FROM customer WHERE $this.name = $name";
    let report = validate::validate_with(&schema, q, &Options::for_app());
    assert_eq!(report.query_params, ["name"]);
    assert!(report.engine_params.contains(&"this".to_owned()) && report.engine_params.contains(&"parent".to_owned()));
    let q = "UPDATE customer:mei SET name = $after RETURN $before.name AS was";
    let report = validate::validate_with(&schema, q, &Options::for_app());
    assert_eq!(report.query_params, ["after"]);
    assert_eq!(report.engine_params, ["before"]);
    assert!(!report.has_errors(), "{}", report.render(q));
}

#[test]
fn the_app_profile_sees_the_whole_schema_and_every_statement() {
    let schema = builder("store").no_agent().generate().unwrap().schema;
    let app = Options::for_app();
    for q in [
        "SELECT name FROM customer",
        "SELECT count() AS n FROM customer GROUP ALL",
        "RETURN true",
        "INFO FOR TABLE customer",
        "SELECT name FROM ONLY $rid",
        "SELECT * FROM type::table($t) WHERE name = $n",
        "SELECT * FROM type::record('customer', $id)",
        "BEGIN; LET $c = (CREATE ONLY customer SET name = 'a', tier = 'pro', country = 'DE', joined = time::now()); RELATE $c->placed->purchase:p1; COMMIT;",
        "FOR $p IN (SELECT VALUE id FROM purchase) { UPDATE $p SET status = 'shipped' }",
        "IF (SELECT count() AS n FROM customer GROUP ALL)[0].n > 3 { RETURN 'many' } ELSE { RETURN 'few' }",
        "UPSERT customer:new MERGE { name: 'New', tier: 'free' } RETURN NONE",
        "DELETE purchase WHERE status = 'cancelled' RETURN BEFORE",
        "INSERT INTO product [{ name: 'Lamp', category: 'home', price: 20dec }] ON DUPLICATE KEY UPDATE price += 1dec",
        "UPDATE product SET price -= 1dec WHERE category = 'audio' RETURN DIFF",
    ] {
        let report = validate::validate_with(&schema, q, &app);
        assert!(report.diagnostics.is_empty(), "{q}\n{}", report.render(q));
    }
    // The agent's profile keeps its rules.
    let agent = validate::validate(&schema, "DELETE purchase");
    assert!(agent.has(Class::NotOneSelect));
}
