//! `scope(..., jwks = "URL", issuer = "...", audience = "...", user_claim = "...")`: the team's
//! identity provider on the Schema item, read by the one front end (the compiler's and the
//! derive's), kept in the IR (and left out of its JSON when unset), every bad value an error at
//! its file, line and column.

use surqlc::front::{compile, SourceFile};

/// The store-like schema with `extra` inside its `scope(...)`.
fn source(extra: &str) -> String {
    format!(
        "#[derive(Schema)]\n#[surqlc(expose(Member), scope(end_user = Member{extra}))]\npub struct Club;\n\
         #[derive(Table)]\npub struct Member {{ pub name: String }}\n"
    )
}

fn compiled(text: &str) -> Result<surqlc::ir::Schema, Vec<(usize, usize, String)>> {
    compile(&[SourceFile {
        path: "schemas/club.rs".into(),
        text: text.to_owned(),
    }])
    .map_err(|d| d.0.into_iter().map(|d| (d.line, d.column, d.message)).collect())
}

/// `(line, column)` (1-based, in characters) of the first `needle` in `text`.
fn at(text: &str, needle: &str) -> (usize, usize) {
    let offset = text.find(needle).expect("needle in text");
    let before = &text[..offset];
    (
        before.matches('\n').count() + 1,
        before.rsplit('\n').next().unwrap_or("").chars().count() + 1,
    )
}

#[test]
fn the_provider_is_read_into_the_ir_with_sub_as_the_default_claim() {
    let schema = compiled(&source(
        r#", jwks = "https://idp.example.com/.well-known/jwks.json", issuer = "https://idp.example.com/", audience = "club-agent""#,
    ))
    .unwrap();
    let oidc = schema
        .settings
        .scope
        .as_ref()
        .unwrap()
        .oidc
        .as_ref()
        .expect("the provider");
    assert_eq!(oidc.jwks, "https://idp.example.com/.well-known/jwks.json");
    assert_eq!(oidc.issuer, "https://idp.example.com/");
    assert_eq!(oidc.audience, "club-agent");
    assert_eq!(oidc.user_claim, "sub");
    let json = serde_json::to_string(&schema).unwrap();
    assert!(
        json.contains(r#""oidc":{"jwks":"https://idp.example.com/.well-known/jwks.json""#),
        "{json}"
    );
    let back: surqlc::ir::Schema = serde_json::from_str(&json).unwrap();
    assert_eq!(back.settings.scope, schema.settings.scope);
    let claimed = compiled(&source(
        r#", jwks = "http://127.0.0.1:8080/jwks", issuer = "i", audience = "a", user_claim = "email""#,
    ))
    .unwrap();
    assert_eq!(claimed.settings.scope.unwrap().oidc.unwrap().user_claim, "email");
}

#[test]
fn without_a_provider_the_ir_json_is_as_before() {
    let schema = compiled(&source("")).unwrap();
    assert_eq!(schema.settings.scope.as_ref().unwrap().oidc, None);
    let json = serde_json::to_string(&schema).unwrap();
    assert!(!json.contains("oidc"), "{json}");
    // An IR written before the key existed reads back.
    let back: surqlc::ir::Schema = serde_json::from_str(&json).unwrap();
    assert_eq!(back, schema);
}

#[test]
fn each_bad_value_is_an_error_at_its_position() {
    let cases = [
        (
            r#", jwks = "idp.example.com/jwks", issuer = "i", audience = "a""#,
            r#""idp.example.com"#,
            "https://HOST/PATH",
        ),
        (
            r#", jwks = "http://idp.example.com/jwks", issuer = "i", audience = "a""#,
            r#""http://idp"#,
            "use https:// for idp.example.com",
        ),
        (
            r#", jwks = "https://user:pw@idp/jwks", issuer = "i", audience = "a""#,
            r#""https://user"#,
            "without credentials",
        ),
        (
            r#", jwks = "https://idp/jwks", issuer = " i", audience = "a""#,
            r#"" i""#,
            "must not start or end with a space",
        ),
        (
            r#", jwks = "https://idp/jwks", issuer = "i", audience = """#,
            r#""""#,
            "audience",
        ),
        (
            r#", jwks = "https://idp/jwks", issuer = "i", audience = "a", user_claim = "e mail""#,
            r#""e mail""#,
            "claim name",
        ),
        (
            r#", jwks = "https://idp/jwks", audience = "a""#,
            r#""https://idp"#,
            "needs `issuer",
        ),
        (
            r#", jwks = "https://idp/jwks", issuer = "i""#,
            r#""https://idp"#,
            "needs `audience",
        ),
        (r#", issuer = "https://idp""#, r#""https://idp"#, "add `jwks"),
        (r#", user_claim = "sub""#, r#""sub""#, "add `jwks"),
        (
            r#", jwks = "https://idp/jwks", issuer = "i", audience = "a", jwks = "https://x/y""#,
            r#""https://x"#,
            "duplicate",
        ),
        (r#", jwk = "https://idp/jwks""#, "jwk =", "jwks"),
    ];
    for (extra, needle, said) in cases {
        let text = source(extra);
        let errors = compiled(&text).expect_err(extra);
        assert_eq!(errors.len(), 1, "{extra}: {errors:#?}");
        let (line, column, message) = &errors[0];
        assert_eq!((*line, *column), at(&text, needle), "{extra}: {message}");
        assert!(message.contains(said), "{extra}: {message}");
    }
}

/// The derive reads the same front end: these keys compile on an application's own type.
#[allow(dead_code)]
mod derived {
    use surqlc_macros::{Schema, Table};

    #[derive(Schema)]
    #[surqlc(
        expose(Member),
        scope(
            end_user = Member,
            jwks = "https://idp.example.com/jwks.json",
            issuer = "https://idp.example.com",
            audience = "club",
            user_claim = "email"
        )
    )]
    pub struct Club;

    #[derive(Table)]
    pub struct Member {
        pub name: String,
    }
}
