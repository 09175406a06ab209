//! Golden files: `schema.surql` for every schema in `schemas/`. Regenerate with `SURQLC_BLESS=1`.

use surqlc_tests::*;

/// Compiles every schema and compares (or, when blessing, rewrites) its golden file.
#[test]
fn every_schema_matches_its_golden_file() {
    let bless = std::env::var_os("SURQLC_BLESS").is_some();
    let mut schemas: Vec<_> = std::fs::read_dir(root().join("schemas"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "rs"))
        .collect();
    schemas.sort();
    assert!(schemas.len() >= 2, "schemas/ holds the examples");
    let mut stale = Vec::new();
    for path in schemas {
        let stem = path.file_stem().unwrap().to_string_lossy().into_owned();
        // A fixed password so the PASSHASH line is covered; the hash is deterministic.
        let output = builder(&stem)
            .agent_password("golden-password")
            .generate()
            .unwrap_or_else(|e| panic!("{e}"));
        let golden = root()
            .join("tests/golden")
            .join(format!("{stem}.schema.surql"));
        if bless {
            surqlc::builder::write_if_changed(&golden, &output.schema_surql).unwrap();
        } else if std::fs::read_to_string(&golden).ok().as_deref()
            != Some(output.schema_surql.as_str())
        {
            stale.push(golden.display().to_string());
        }
    }
    assert!(
        stale.is_empty(),
        "output changed for {stale:?}; review the diff and rerun with SURQLC_BLESS=1 to accept it"
    );
}

#[test]
fn output_is_deterministic() {
    let a = builder("store")
        .agent_password("x")
        .generate()
        .unwrap()
        .schema_surql;
    let b = builder("store")
        .agent_password("x")
        .generate()
        .unwrap()
        .schema_surql;
    assert_eq!(a, b);
}

#[test]
fn every_schema_loads_into_the_embedded_engine() {
    block_on(async {
        for stem in ["store", "library"] {
            let output = builder(stem).agent_password("pw").generate().unwrap();
            let conn = loaded(&[]).await;
            surqlc::db::execute(&conn, &output.schema_surql)
                .await
                .unwrap_or_else(|e| panic!("{stem}: {e}"));
            let context = surqlc::db::query_string(&conn, "RETURN fn::schema_context()")
                .await
                .unwrap();
            for table in &output.schema.settings.exposed {
                assert!(
                    context.contains(&format!("DEFINE TABLE {table} ")),
                    "{stem}: {table} is in the schema block"
                );
            }
        }
    })
}
