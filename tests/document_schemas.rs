//! Views and user functions as a user writes them, right and wrong: every mistake is an error at its file, line and column (inside the view's attribute string, at the struct's field, in the functions file), and a query's `fn::` calls are checked with and without the data.

use surqlc::diagnostic::Diagnostic;
use surqlc::validate::{self, Class};
use surqlc_tests::*;

const FUNCTIONS: &str = "DEFINE FUNCTION fn::pound_to_usd($gbp: decimal) -> decimal {\n    RETURN $gbp * 1.27dec;\n} COMMENT 'Pounds to dollars';\n\nDEFINE FUNCTION fn::internal($x: int) -> int { RETURN $x; } PERMISSIONS NONE;\n";

/// A schema of an order table and a view over it; `view` and `fields` are the view's attribute
/// and struct body, `functions` the functions file beside the schema.
fn source(view: &str, fields: &str) -> String {
    format!(
        r#"use surqlc::runtime::{{Datetime, Decimal}};
use surqlc_macros::{{Schema, Table}};

#[derive(Schema)]
#[surqlc(functions = "shop.functions.surql")]
pub struct Shop;

#[derive(Table)]
pub struct Order {{
    pub seller: String,
    pub total: Decimal,
    pub placed_at: Datetime,
}}

#[derive(Table)]
#[surqlc(view = "{view}")]
pub struct Sales {{
{fields}
}}
"#
    )
}

const VIEW: &str = "SELECT seller, count() AS orders, math::sum(total) AS revenue FROM order GROUP BY seller";
const FIELDS: &str = "    pub seller: String,\n    pub orders: i64,\n    pub revenue: Decimal,";

fn build(name: &str, text: &str, functions: &str) -> Result<surqlc::builder::Output, Vec<Diagnostic>> {
    let dir = scratch_dir(name);
    std::fs::write(dir.join("shop.functions.surql"), functions).unwrap();
    let path = dir.join("shop.rs");
    std::fs::write(&path, text).unwrap();
    let mut b = surqlc::Builder::new();
    b.schema(&path).cargo_metadata(false).no_agent();
    b.generate().map_err(|e| match e {
        surqlc::builder::Error::Schema(d) => d.0,
        other => panic!("{other}"),
    })
}

/// The one error of a build, with its line, column and the text it underlines.
fn one_error(name: &str, text: &str, functions: &str) -> (usize, usize, String, String) {
    let errors = build(name, text, functions).expect_err("refused");
    assert_eq!(errors.len(), 1, "{errors:?}");
    let e = &errors[0];
    let under = e
        .snippet
        .as_ref()
        .map(|(line, width)| line.chars().skip(e.column - 1).take(*width).collect())
        .unwrap_or_default();
    (e.line, e.column, under, e.message.clone())
}

#[test]
fn a_right_view_and_functions_build_and_load() {
    let output = build("right", &source(VIEW, FIELDS), FUNCTIONS).unwrap();
    let surql = &output.schema_surql;
    assert!(surql.contains("DEFINE TABLE OVERWRITE sales TYPE NORMAL SCHEMAFULL AS SELECT seller, count() AS orders, math::sum(total) AS revenue FROM order GROUP BY seller;"), "{surql}");
    // Functions before the tables, views after them.
    let f = surql.find("DEFINE FUNCTION OVERWRITE fn::pound_to_usd").unwrap();
    let order = surql.find("DEFINE TABLE OVERWRITE order").unwrap();
    let sales = surql.find("DEFINE TABLE OVERWRITE sales").unwrap();
    assert!(f < order && order < sales);
    // The prompt lists the agent's function, not the application's (PERMISSIONS NONE).
    assert!(
        output
            .preamble
            .contains("fn::pound_to_usd($gbp: decimal) -> decimal: Pounds to dollars"),
        "{}",
        output.preamble
    );
    assert!(!output.preamble.contains("fn::internal"));
    block_on(async {
        let db = loaded(&[
            surql,
            "CREATE order:1 SET seller = 'ann', total = 10dec, placed_at = time::now();",
        ])
        .await;
        let rows = surqlc::db::query_json(
            &db,
            "SELECT seller, orders, revenue, fn::pound_to_usd(revenue) AS usd FROM sales",
        )
        .await
        .unwrap();
        assert_eq!(
            rows,
            serde_json::json!([{"seller": "ann", "orders": 1, "revenue": "10", "usd": "12.70"}])
        );
    });
}

#[test]
fn a_mistake_in_the_view_points_into_the_attribute_string() {
    let view = VIEW.replace("math::sum(total)", "math::sum(totl)");
    let (line, column, under, message) = one_error("view_field", &source(&view, FIELDS), FUNCTIONS);
    assert_eq!((line, under.as_str()), (16, "totl"), "{message}");
    assert_eq!(column, 1 + "#[surqlc(view = \"".len() + view.find("totl").unwrap());
    assert!(message.contains("did you mean `total`"), "{message}");
    let view = VIEW.replace("FROM order", "FROM orders");
    let (line, _, under, message) = one_error("view_table", &source(&view, FIELDS), FUNCTIONS);
    assert_eq!((line, under.as_str()), (16, "orders"), "{message}");
    let view = VIEW.replace("count() AS orders", "fn::count_of(seller) AS orders");
    let errors = build("view_fn", &source(&view, FIELDS), FUNCTIONS).unwrap_err();
    let at = 1 + "#[surqlc(view = \"".len() + view.find("fn::count_of").unwrap();
    assert_eq!((errors[0].line, errors[0].column), (16, at), "{errors:?}");
    assert!(
        errors[0]
            .message
            .contains("fn::count_of is not a function of this database"),
        "{errors:?}"
    );
}

#[test]
fn the_struct_must_match_the_views_projection() {
    // A field of another type than the SELECT computes: at the field.
    let fields = FIELDS.replace("pub orders: i64", "pub orders: String");
    let (line, _, under, message) = one_error("view_type", &source(VIEW, &fields), FUNCTIONS);
    assert_eq!((line, under.as_str()), (19, "orders"), "{message}");
    assert!(
        message.contains("computes `orders` as int, but the field is declared string"),
        "{message}"
    );
    // A field the SELECT does not compute, and a projection without a field.
    let fields = FIELDS.replace("pub revenue: Decimal", "pub total: Decimal");
    let errors = build("view_names", &source(VIEW, &fields), FUNCTIONS).unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(errors.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("computes `revenue`, but `Sales` has no field `revenue`"),
        "{messages:?}"
    );
    assert!(
        messages[1].contains("`total` is a field of the view `sales`, but its SELECT does not compute it"),
        "{messages:?}"
    );
    // An option field takes what the SELECT computes; the view builds.
    let fields = FIELDS.replace("pub revenue: Decimal", "pub revenue: Option<Decimal>");
    assert!(build("view_option", &source(VIEW, &fields), FUNCTIONS).is_ok());
}

#[test]
fn what_a_view_cannot_be_is_refused_where_it_is_written() {
    let (line, _, under, message) = one_error(
        "view_not_select",
        &source("UPDATE order SET total = 0", FIELDS),
        FUNCTIONS,
    );
    assert_eq!((line, under.as_str()), (16, "UPDATE"), "{message}");
    // `VALUE` names no column; `*` over one table is that table's fields (below).
    let (_, _, _, message) = one_error("view_value", &source("SELECT VALUE seller FROM order", ""), FUNCTIONS);
    assert!(message.contains("must name what it computes"), "{message}");
    let fields = format!("{FIELDS}\n    #[surqlc(default = \"0\")]\n    pub extra: i64,");
    let errors = build("view_clause", &source(VIEW, &fields), FUNCTIONS).unwrap_err();
    assert!(
        errors.iter().any(|e| e.message.contains("`default` would never run")),
        "{errors:?}"
    );
}

#[test]
fn a_view_of_every_field_is_checked_against_its_tables_fields() {
    // `SELECT *` copies each field of its table into the view's row (tests/document_engine.rs):
    // the struct holds exactly those fields, of their types; a column after `*` replaces one.
    let every = "    pub seller: String,\n    pub total: Decimal,\n    pub placed_at: Datetime,";
    assert!(build(
        "view_star",
        &source("SELECT * FROM order WHERE total > 10dec", every),
        FUNCTIONS
    )
    .is_ok());
    let errors = build(
        "view_star_missing",
        &source("SELECT * FROM order", "    pub seller: String,"),
        FUNCTIONS,
    )
    .unwrap_err();
    let messages: Vec<&str> = errors.iter().map(|e| e.message.as_str()).collect();
    assert_eq!(messages.len(), 2, "{messages:?}");
    assert!(
        messages[0].contains("computes `total`, but `Sales` has no field `total`"),
        "{messages:?}"
    );
    let wrong = every.replace("pub total: Decimal", "pub total: String");
    let (_, _, under, message) = one_error("view_star_type", &source("SELECT * FROM order", &wrong), FUNCTIONS);
    assert_eq!(under, "total", "{message}");
    assert!(message.contains("computes `total` as decimal"), "{message}");
    let upper = "SELECT *, string::uppercase(seller) AS seller, true AS checked FROM order";
    let fields = format!("{every}\n    pub checked: bool,");
    assert!(build("view_star_more", &source(upper, &fields), FUNCTIONS).is_ok());
}

#[test]
fn a_functions_file_is_read_by_the_engines_parser_with_positions() {
    let text = source(VIEW, FIELDS);
    // A syntax error, at its line and column in the functions file.
    let broken = FUNCTIONS.replace("$gbp * 1.27dec", "$gbp * ");
    let errors = build("fn_syntax", &text, &broken).unwrap_err();
    assert_eq!(errors.len(), 1, "{errors:?}");
    assert!(errors[0].path.ends_with("shop.functions.surql"));
    assert_eq!(errors[0].line, 2, "{errors:?}");
    // A statement that is not a function; one of the prompt's own functions.
    let other = format!("{FUNCTIONS}\nDEFINE TABLE extra;\n");
    let (line, column, under, message) = one_error("fn_table", &text, &other);
    assert_eq!((line, column, under.as_str()), (7, 1, "DEFINE"), "{message}");
    let clash = "DEFINE FUNCTION fn::schema_context() -> string { RETURN ''; };";
    let (_, _, _, message) = one_error("fn_clash", &text, clash);
    assert!(
        message.contains("fn::schema_context is one of the functions schema.surql defines"),
        "{message}"
    );
    // A missing file, at the attribute.
    let missing = text.replace("shop.functions.surql", "nowhere.surql");
    let (line, _, under, message) = one_error("fn_missing", &missing, FUNCTIONS);
    assert_eq!((line, under.as_str()), (5, "\"nowhere.surql\""), "{message}");
}

#[test]
fn a_query_calls_only_the_agents_functions_with_the_right_arguments() {
    let output = build("calls", &source(VIEW, FIELDS), FUNCTIONS).unwrap();
    let schema = &output.schema;
    let check = |q: &str| validate::validate(schema, q);
    // The return type types the projection.
    let report = check("SELECT fn::pound_to_usd(total) AS usd FROM order LIMIT 5");
    assert!(report.diagnostics.is_empty(), "{}", report.render(""));
    assert_eq!(report.projections[0].ty.to_string(), "decimal");
    for (q, class, says) in [
        (
            "SELECT fn::pound_to_usdd(total) AS usd FROM order LIMIT 5",
            Class::UnknownFunction,
            "did you mean fn::pound_to_usd?",
        ),
        (
            "SELECT fn::internal(1) AS x FROM order LIMIT 5",
            Class::UnknownFunction,
            "fn::internal is not a function of this database",
        ),
        (
            "SELECT fn::nl2surql_prompt('q', []) AS x FROM order LIMIT 5",
            Class::UnknownFunction,
            "not a function of this database",
        ),
        (
            "SELECT fn::pound_to_usd(total, 2) AS usd FROM order LIMIT 5",
            Class::FunctionArguments,
            "takes 1 argument",
        ),
        (
            "SELECT fn::pound_to_usd(seller) AS usd FROM order LIMIT 5",
            Class::FunctionArguments,
            "argument 1 of fn::pound_to_usd ($gbp) is string",
        ),
    ] {
        let report = check(q);
        let found = report.diagnostics.iter().find(|d| d.class == class);
        assert!(
            found.is_some_and(|d| d.to_string().contains(says)),
            "{q}: {}",
            report.render(q)
        );
    }
    // With the data checks (`--seed`) the verdict is the same: the unknown name is refused first.
    block_on(async {
        let db = loaded(&[
            &output.schema_surql,
            "CREATE order:1 SET seller = 'ann', total = 1dec, placed_at = time::now();",
        ])
        .await;
        let q = "SELECT fn::pound_to_usdd(total) AS usd FROM order LIMIT 5";
        let mut report = check(q);
        validate::data::check(&db, schema, &mut report).await.unwrap();
        assert!(report.has(Class::UnknownFunction), "{}", report.render(q));
        let e = surqlc::db::query_json(&db, q).await.unwrap_err().to_string();
        assert!(e.contains("pound_to_usdd"), "{e}");
    });
}

/// The agent calls the schema's functions under either mechanism: a `VIEWER` (nothing hidden) and
/// a record user bound by `PERMISSIONS` (a hidden field); the application's `PERMISSIONS NONE`
/// function is refused by the validator before the engine sees it.
#[test]
fn the_agent_may_call_the_schemas_functions_under_either_access() {
    use surqlc::runtime::{run_validated, Outcome, QUERY_TIMEOUT};
    let viewer = source(VIEW, FIELDS);
    let record = viewer.replace(
        "    pub placed_at: Datetime,\n}",
        "    pub placed_at: Datetime,\n    #[surqlc(hidden)]\n    pub buyer_email: String,\n}",
    );
    block_on(async {
        for (name, text) in [("agent_viewer", viewer), ("agent_record", record)] {
            let dir = scratch_dir(name);
            std::fs::write(dir.join("shop.functions.surql"), FUNCTIONS).unwrap();
            let path = dir.join("shop.rs");
            std::fs::write(&path, text).unwrap();
            let seed =
                "CREATE order:1 SET seller = 'ann', total = 10dec, placed_at = time::now(), buyer_email = 'b@x';";
            let seed = if name == "agent_viewer" {
                seed.replace(", buyer_email = 'b@x'", "")
            } else {
                seed.to_owned()
            };
            let (output, _db, agent) = crate::ask::opened(&path, Some(&seed)).await;
            let q = "SELECT seller, fn::pound_to_usd(total) AS usd FROM order LIMIT 5";
            match run_validated(&agent, q, QUERY_TIMEOUT, &output.schema).await.unwrap() {
                Outcome::Rows { rows, .. } => assert_eq!(
                    rows.into_iter().map(|r| r.into_json_value()).collect::<Vec<_>>(),
                    [serde_json::json!({"seller": "ann", "usd": "12.70"})],
                    "{name}"
                ),
                other => panic!("{name}: {other:?}"),
            }
            let q = "SELECT fn::internal(1) AS x FROM order LIMIT 5";
            let refused = run_validated(&agent, q, QUERY_TIMEOUT, &output.schema).await.unwrap();
            assert!(!matches!(refused, Outcome::Rows { .. }), "{name}: {refused:?}");
        }
    });
}
