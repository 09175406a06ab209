//! Rust identifiers for SurrealQL names: what the generated module calls a table, a field or a helper.

/// A name as a Rust item name: snake_case (tables may be named `Customer`), raw if a keyword
/// (`r#type`), with a `_` where even that is impossible (`self_`, `_` alone).
pub fn rust_ident(name: &str) -> String {
    let snake = heck::AsSnakeCase(name).to_string();
    match snake.as_str() {
        "" | "_" => format!("{snake}_table"),
        "self" | "super" | "crate" => format!("{snake}_"),
        s if s.starts_with(|c: char| c.is_ascii_digit()) => format!("t_{s}"),
        s if syn::parse_str::<syn::Ident>(s).is_ok() => snake,
        s => format!("r#{s}"),
    }
}
