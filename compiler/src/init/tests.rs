//! Unit tests of `init`: SurrealQL in, Rust that surqlc's own front end compiles out.

use super::*;

fn options() -> Options {
    Options {
        schema_type: "Shop".into(),
        functions_file: "shop.functions.surql".into(),
        from: "shop.surql".into(),
    }
}

fn run(text: &str) -> Init {
    init(
        &[Source {
            name: "shop.surql".into(),
            text: text.into(),
        }],
        &options(),
    )
    .unwrap()
}

/// The written file compiled by the front end (the functions file beside it).
fn compile(out: &Init) -> crate::ir::Schema {
    let dir = std::env::temp_dir().join(format!(
        "surqlc-init-unit-{}-{:?}",
        std::process::id(),
        std::thread::current().id()
    ));
    std::fs::create_dir_all(&dir).unwrap();
    if let Some(f) = &out.functions {
        std::fs::write(dir.join("shop.functions.surql"), f).unwrap();
    }
    let file = crate::front::SourceFile {
        path: dir.join("shop.rs"),
        text: out.rust.clone(),
    };
    match crate::front::compile(&[file]) {
        Ok(schema) => schema,
        Err(e) => panic!("{e}\n{}", out.rust),
    }
}

#[test]
fn dev_print_golden() {
    let Ok(path) = std::env::var("INIT_DEV") else { return };
    let text = std::fs::read_to_string(&path).unwrap();
    let out = run(&text);
    println!("{}", out.rust);
    if let Some(f) = &out.functions {
        println!("{f}");
    }
    compile(&out);
}
