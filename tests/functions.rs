//! surqlc's table of built-in function signatures against the embedded engine of Cargo.lock: every entry is called with arguments of its kinds (accepted), with one argument too many and one too few (refused), and with each argument of a type the table refuses (refused), so the table cannot drift from the engine.

use std::collections::BTreeMap;
use surqlc::validate::functions::{fits, signature, signatures, Kind, Signature};
use surqlc::validate::{self, Class, Ty};
use surqlc_tests::*;

/// Tables and indexes the context-bound functions (`search::*`, `vector::distance::knn`) need.
const SETUP: &str = "
DEFINE TABLE thing SCHEMALESS;
CREATE thing:one SET body = 'hello world', v = [1.0, 2.0];
DEFINE ANALYZER simple TOKENIZERS blank FILTERS lowercase;
DEFINE INDEX body_ft ON thing FIELDS body FULLTEXT ANALYZER simple BM25 HIGHLIGHTS;
DEFINE INDEX v_hnsw ON thing FIELDS v HNSW DIMENSION 2;
";

/// The statement a SELECT would run the call in (`{}` is the call).
const PLAIN: &str = "SELECT VALUE {} FROM thing:one";

/// Calls whose arguments of the right kinds still need particular values, and the statement
/// that gives a context-bound function its context.
fn special(name: &str) -> Option<(&'static [&'static str], &'static str)> {
    const FT: &str = "SELECT VALUE {} FROM thing WHERE body @1@ 'hello'";
    const KNN: &str = "SELECT VALUE {} FROM thing WHERE v <|1,40|> [1.0, 2.0]";
    Some(match name {
        "array::range" => (&["1", "2"], PLAIN),
        "array::fill" => (&["[1, 2, 3]", "0", "0", "1"], PLAIN),
        "string::replace" => (&["'a'", "'a'", "'b'"], PLAIN),
        "string::matches" => (&["'a'", "'a'"], PLAIN),
        "string::is_record" => (&["'thing:one'", "'thing'"], PLAIN),
        "type::is_record" => (&["thing:one", "'thing'"], PLAIN),
        "string::semver::compare" => (&["'1.2.3'", "'1.2.4'"], PLAIN),
        "string::semver::major"
        | "string::semver::minor"
        | "string::semver::patch"
        | "string::semver::inc::major"
        | "string::semver::inc::minor"
        | "string::semver::inc::patch" => (&["'1.2.3'"], PLAIN),
        "string::semver::set::major" | "string::semver::set::minor" | "string::semver::set::patch" => {
            (&["'1.2.3'", "4"], PLAIN)
        }
        "time::from_ulid" => (&["'01ARZ3NDEKTSV4RRFFQ69G5FAV'"], PLAIN),
        "encoding::base64::decode" => (&["'YQ'"], PLAIN),
        "encoding::json::decode" => (&["'1'"], PLAIN),
        "encoding::cbor::decode" => (&["encoding::cbor::encode(1)"], PLAIN),
        "geo::hash::decode" => (&["'mpuxk4s24f51'"], PLAIN),
        "type::datetime" => (&["'2024-01-01T00:00:00Z'"], PLAIN),
        "type::duration" => (&["'1h'"], PLAIN),
        "type::uuid" => (&["'0190d9a5-0f4e-7c3a-8a5b-6c7d8e9fa0b1'"], PLAIN),
        "type::point" => (&["[1.5, 2.5]"], PLAIN),
        "type::geometry" => (&["(1.5, 2.5)"], PLAIN),
        "type::range" => (&["1..2"], PLAIN),
        "type::record" => (&["'thing'", "'one'"], PLAIN),
        "type::table" => (&["'thing'"], PLAIN),
        "type::field" => (&["'body'"], PLAIN),
        "type::fields" => (&["['body']"], PLAIN),
        "type::bytes" => (&["'a'"], PLAIN),
        "type::array" | "type::set" => (&["[1]"], PLAIN),
        "object::from_entries" => (&["[['a', 1]]"], PLAIN),
        "object::remove" => (&["{ a: 1 }", "'a'"], PLAIN),
        "value::diff" | "value::patch" => (&["{ a: 1 }", "[]"], PLAIN),
        "value::expect" => (&["1", "|$x| true"], PLAIN),
        "type::bool" => (&["true"], PLAIN),
        "record::is_edge" => (&["thing:one"], PLAIN),
        "array::fold" | "set::fold" => (&["[1, 2]", "0", "|$acc, $x| $acc + $x"], PLAIN),
        "array::reduce" | "set::reduce" => (&["[1, 2]", "|$acc, $x| $acc + $x"], PLAIN),
        "vector::cross" => (&["[1, 2, 3]", "[4, 5, 6]"], PLAIN),
        "vector::distance::mahalanobis" => (&["[1, 2]", "[3, 4]", "[[1, 0], [0, 1]]"], PLAIN),
        "search::linear" => (
            &[
                "[[{ id: thing:one, distance: 1 }], [{ id: thing:one, ft_score: 1 }]]",
                "[1, 1]",
                "2",
                "'minmax'",
            ],
            PLAIN,
        ),
        "search::rrf" => (
            &[
                "[[{ id: thing:one, distance: 1 }], [{ id: thing:one, ft_score: 1 }]]",
                "2",
                "60",
            ],
            PLAIN,
        ),
        "search::analyze" => (&["'simple'", "'Hello World'"], PLAIN),
        "search::score" => (&["1"], FT),
        "search::highlight" => (&["'<b>'", "'</b>'", "1", "true"], FT),
        "search::offsets" => (&["1", "true"], FT),
        "vector::distance::knn" => (&["1"], KNN),
        "crypto::argon2::compare"
        | "crypto::bcrypt::compare"
        | "crypto::pbkdf2::compare"
        | "crypto::scrypt::compare" => return None,
        "rand::time" => (&["d'2024-01-01T00:00:00Z'", "d'2025-01-01T00:00:00Z'"], PLAIN),
        "rand::duration" => (&["1h", "2h"], PLAIN),
        "rand::int" => (&["1", "5"], PLAIN),
        "rand::float" => (&["1.5", "2.5"], PLAIN),
        "rand::id" | "rand::string" => (&["5", "10"], PLAIN),
        "time::group" => (&["d'2024-01-01T00:00:00Z'", "'month'"], PLAIN),
        "time::format" => (&["d'2024-01-01T00:00:00Z'", "'%Y'"], PLAIN),
        "math::percentile" | "math::nearestrank" => (&["[1, 2]", "50"], PLAIN),
        "array::join" | "set::join" => (&["[1, 2]", "','"], PLAIN),
        "array::windows" | "array::clump" => (&["[1, 2, 3]", "2"], PLAIN),
        "array::swap" => (&["[1, 2]", "0", "1"], PLAIN),
        "array::transpose" => (&["[[1, 2], [3, 4]]"], PLAIN),
        "array::boolean_and" | "array::boolean_or" | "array::boolean_xor" | "array::logical_and"
        | "array::logical_or" | "array::logical_xor" => (&["[true, false]", "[true, true]"], PLAIN),
        "vector::sum" => (&["[[1, 2], [3, 4]]"], PLAIN),
        _ => return None,
    })
}

/// The valid arguments of a call of every argument the signature declares (optional ones
/// included) and one variadic argument.
fn valid_args(sig: &Signature) -> (Vec<String>, &'static str) {
    if let Some((args, stmt)) = special(sig.name) {
        return (args.iter().map(|a| a.to_string()).collect(), stmt);
    }
    let mut args: Vec<String> = sig.args.iter().map(|k| k.sample().to_owned()).collect();
    if let Some(v) = sig.variadic {
        args.push(v.sample().to_owned());
    }
    (args, PLAIN)
}

fn statement(stmt: &str, name: &str, args: &[String]) -> String {
    stmt.replace("{}", &format!("{name}({})", args.join(", ")))
}

/// Each statement run alone; `None` when the engine answered, else its error.
async fn outcomes(db: &surqlc::db::Db, statements: &[String]) -> Vec<Option<String>> {
    let mut out = Vec::new();
    for s in statements {
        let result = db.query(s.as_str()).await.and_then(|r| r.check());
        out.push(result.err().map(|e| e.to_string()));
    }
    out
}

/// The `type::is_*` function that tests a result of `kind`, if the kind says something.
fn is_kind(kind: Kind) -> Option<&'static str> {
    Some(match kind {
        Kind::Bool => "type::is_bool",
        Kind::Int => "type::is_int",
        Kind::Float => "type::is_float",
        Kind::Number => "type::is_number",
        Kind::String => "type::is_string",
        Kind::Datetime => "type::is_datetime",
        Kind::Duration => "type::is_duration",
        Kind::Uuid => "type::is_uuid",
        Kind::Bytes => "type::is_bytes",
        Kind::Array | Kind::Numbers | Kind::Datetimes | Kind::Strings | Kind::Vectors => "type::is_array",
        Kind::Object => "type::is_object",
        Kind::Record => "type::is_record",
        Kind::Set => "type::is_set",
        Kind::Geometry => "type::is_geometry",
        Kind::Any | Kind::Closure => return None,
    })
}

/// Values of a known type each, to offer every argument a type it must refuse.
fn probes() -> Vec<(&'static str, Ty)> {
    vec![
        ("'x'", Ty::String),
        ("1", Ty::Int),
        ("true", Ty::Bool),
        ("d'2024-01-01T00:00:00Z'", Ty::Datetime),
        ("1h", Ty::Duration),
        ("['x']", Ty::array(Ty::String)),
        ("[1]", Ty::array(Ty::Int)),
        ("{ a: 1 }", Ty::AnyObject),
        ("thing:one", Ty::Record("thing".into())),
    ]
}

/// One call per argument and per probe of a type the table says cannot fit it: the argument's
/// index, its kind, the probe's type, and the statement.
fn wrong_type_calls(sig: &Signature, stmt: &str, args: &[String]) -> Vec<(usize, Kind, Ty, String)> {
    let mut wrong = Vec::new();
    for i in 0..args.len() {
        let Some(kind) = sig.arg(i) else { continue };
        for (literal, ty) in probes() {
            if !fits(kind, &ty, false) {
                let mut bad = args.to_vec();
                bad[i] = literal.to_owned();
                wrong.push((i, kind, ty.clone(), statement(stmt, sig.name, &bad)));
            }
        }
    }
    wrong
}

#[test]
fn every_signature_is_what_the_engine_accepts_and_refuses() {
    let sigs = signatures();
    let report = block_on(async {
        let db = loaded(&[SETUP]).await;
        let mut accepted = 0;
        let mut arity_refused = 0;
        let mut type_refused = 0;
        let mut returned = 0;
        let mut failures = Vec::new();
        for sig in sigs {
            let (args, stmt) = valid_args(sig);
            // The right call, and its result of the declared kind.
            let ok = statement(stmt, sig.name, &args);
            let mut statements = vec![ok.clone()];
            let returns = is_kind(sig.returns).map(|is| {
                let call = format!("{}({})", sig.name, args.join(", "));
                stmt.replace("{}", &format!("{is}({call}) OR {call} IS NONE"))
            });
            // One argument too many (the last valid argument repeated), one too few.
            let too_many = sig.max().map(|max| {
                let mut more = args.clone();
                while more.len() < max {
                    more.push(sig.args[more.len()].sample().to_owned());
                }
                more.push(args.last().cloned().unwrap_or_else(|| "1".into()));
                statement(stmt, sig.name, &more)
            });
            let too_few = (sig.min > 0).then(|| statement(stmt, sig.name, &args[..sig.min - 1]));
            statements.extend(too_many.iter().cloned());
            statements.extend(too_few.iter().cloned());
            // Each argument of a type the table says cannot fit.
            let wrong = wrong_type_calls(sig, stmt, &args);
            statements.extend(wrong.iter().map(|w| w.3.clone()));
            let results = outcomes(&db, &statements).await;
            let mut results = results.into_iter();
            match results.next().flatten() {
                None => accepted += 1,
                Some(e) => {
                    failures.push(format!("{sig}: the engine refused `{ok}`: {e}"));
                    continue;
                }
            }
            if let Some(stmt) = &returns {
                let answer = db.query(stmt.as_str()).await.and_then(|r| r.check());
                let value = match answer {
                    Ok(mut r) => r.take::<surrealdb::types::Value>(0).map(|v| v.into_json_value()).ok(),
                    Err(_) => None,
                };
                match value {
                    Some(v)
                        if v.as_array()
                            .is_some_and(|a| a.iter().all(|x| x == &serde_json::json!(true))) =>
                    {
                        returned += 1
                    }
                    v => failures.push(format!("{sig}: `{stmt}` answers {v:?}")),
                }
            }
            for (what, stmt) in [("too many", &too_many), ("too few", &too_few)] {
                if let Some(stmt) = stmt {
                    match results.next().flatten() {
                        Some(_) => arity_refused += 1,
                        None => failures.push(format!("{sig}: the engine accepted {what} arguments: `{stmt}`")),
                    }
                }
            }
            for (i, kind, ty, stmt) in wrong {
                match results.next().flatten() {
                    Some(_) => type_refused += 1,
                    None => failures.push(format!(
                        "{sig}: the engine accepted {ty} as argument {} ({kind}): `{stmt}`",
                        i + 1
                    )),
                }
            }
        }
        (accepted, arity_refused, type_refused, returned, failures)
    });
    let (accepted, arity_refused, type_refused, returned, failures) = report;
    assert!(
        failures.is_empty(),
        "{} disagreements with the engine:\n{}",
        failures.len(),
        failures.join("\n")
    );
    eprintln!(
        "{} signatures: {accepted} calls accepted, {returned} results of the declared kind, {arity_refused} wrong arities and {type_refused} wrong argument types refused",
        sigs.len()
    );
    assert_eq!(accepted, sigs.len());
}

/// The aggregate flag against the engine: under GROUP ALL, a function whose first argument is an
/// array is given one row's value. An aggregate folds the rows' values into one answer; any other
/// function is called per row, refuses the value that is not an array, and each row's call
/// answers NONE: an array of NONEs, a wrong answer without an error. An aggregate given strings
/// where it adds numbers skips them all and answers 0 or NONE, also without an error.
#[test]
fn the_aggregates_are_what_the_engine_folds_under_group_by() {
    let rows = "CREATE agg:1 SET n = 1, d = d'2024-01-01T00:00:00Z', v = [1, 2], s = 'a';
                CREATE agg:2 SET n = 2, d = d'2024-02-01T00:00:00Z', v = [3, 4], s = 'b';";
    let (results, wrong) = block_on(async {
        let db = loaded(&[rows]).await;
        let mut results = Vec::new();
        for sig in signatures() {
            let field = match sig.args.first() {
                Some(Kind::Numbers | Kind::Array | Kind::Set) => "n",
                Some(Kind::Datetimes) => "d",
                Some(Kind::Vectors) => "v",
                Some(Kind::Strings) => "s",
                _ => continue,
            };
            let (mut args, _) = valid_args(sig);
            args[0] = field.to_owned();
            let stmt = format!("SELECT VALUE {}({}) FROM agg GROUP ALL", sig.name, args.join(", "));
            let value = surqlc::db::query_json(&db, &stmt).await;
            results.push((sig, stmt, value.map_err(|e| e.to_string())));
        }
        let mut wrong = Vec::new();
        for stmt in [
            "SELECT VALUE math::sum(s) FROM agg GROUP ALL",
            "SELECT VALUE math::mean(s) FROM agg GROUP ALL",
            "SELECT VALUE time::max(s) FROM agg GROUP ALL",
            "SELECT VALUE math::mode(n) FROM agg GROUP ALL",
        ] {
            let value = surqlc::db::query_json(&db, stmt).await;
            wrong.push((stmt, value.map_err(|e| e.to_string())));
        }
        (results, wrong)
    });
    let per_row_none = |v: &serde_json::Value| {
        v.as_array()
            .and_then(|groups| groups.first())
            .and_then(|r| r.as_array())
            .is_some_and(|r| r.len() == 2 && r.iter().all(|x| x.is_null()))
    };
    let mut failures = Vec::new();
    let (mut folded, mut per_row) = (0, 0);
    for (sig, stmt, value) in &results {
        match (sig.aggregate, value) {
            (true, Ok(v)) if !per_row_none(v) => folded += 1,
            (false, Ok(v)) if per_row_none(v) => per_row += 1,
            (false, Err(_)) => per_row += 1,
            (true, v) => failures.push(format!("{sig} is marked aggregate, but `{stmt}` gives {v:?}")),
            (false, v) => failures.push(format!("{sig} is not marked aggregate, but `{stmt}` folds: {v:?}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
    let aggregates = signatures().iter().filter(|s| s.aggregate).count();
    assert_eq!(folded + 1, aggregates, "every aggregate but count folded");
    eprintln!(
        "{folded} aggregates folded a row's value under GROUP ALL, {per_row} other functions refused it row by row"
    );
    for (stmt, value) in wrong {
        let value = value.unwrap_or_else(|e| panic!("`{stmt}` fails: {e}"));
        let answer = &value[0];
        assert!(
            answer.is_null() || answer == &serde_json::json!(0) || per_row_none(&value),
            "`{stmt}` answers {value}"
        );
    }
}

/// Each FunctionArguments query of the wrong corpus really fails on the store, or answers
/// wrongly: every computed value NONE, 0 or an array of NONEs.
#[test]
fn the_wrong_calls_of_the_corpus_fail_on_the_engine() {
    let text = read(root().join("tests/corpus/store_wrong.surql"));
    let queries: Vec<String> = validate::split_queries(&text, false)
        .into_iter()
        .filter(|p| p.text.contains("-- expect: FunctionArguments"))
        .map(|p| p.text)
        .collect();
    assert!(queries.len() >= 10, "{} FunctionArguments queries", queries.len());
    let outcomes = block_on(async {
        let schema = builder("store").generate().unwrap().schema_surql;
        let db = loaded(&[&schema, &read(root().join("schemas/store.seed.surql"))]).await;
        let mut out = Vec::new();
        for q in &queries {
            out.push((
                q.clone(),
                surqlc::db::query_json(&db, q).await.map_err(|e| e.to_string()),
            ));
        }
        out
    });
    let wrong_answer = |v: &serde_json::Value| {
        let empty = |x: &serde_json::Value| {
            x.is_null() || x == &serde_json::json!(0) || x.as_array().is_some_and(|a| a.iter().all(|e| e.is_null()))
        };
        v.as_array().is_some_and(|rows| {
            !rows.is_empty()
                && rows.iter().all(|row| {
                    row.as_object().is_some_and(|o| {
                        // Group keys are strings; what the function computed is empty.
                        o.values().all(|x| x.is_string() || empty(x))
                    })
                })
        })
    };
    let mut failures = Vec::new();
    for (q, outcome) in &outcomes {
        let report = validate::validate(&crate::functions::store_schema(), q);
        assert!(report.has(Class::FunctionArguments), "{q}");
        match outcome {
            Err(_) => {}
            Ok(v) if wrong_answer(v) => {}
            Ok(v) => failures.push(format!("`{q}` answers {v}")),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

fn store_schema() -> surqlc::ir::Schema {
    surqlc::front::compile(&[surqlc::front::SourceFile::read(root().join("schemas/store.rs")).unwrap()]).unwrap()
}

#[test]
fn the_table_covers_the_modules_a_select_uses() {
    let mut per_module: BTreeMap<&str, usize> = BTreeMap::new();
    for s in signatures() {
        *per_module
            .entry(s.name.split("::").next().unwrap_or(s.name))
            .or_default() += 1;
    }
    for module in [
        "array", "count", "math", "string", "time", "duration", "type", "record", "rand", "geo", "object", "value",
        "crypto", "search", "vector", "meta",
    ] {
        assert!(per_module.contains_key(module), "no {module}:: functions");
    }
    for name in [
        "string::is_email",
        "type::is_number",
        "search::score",
        "search::highlight",
        "search::offsets",
        "vector::distance::euclidean",
        "vector::similarity::cosine",
        "time::min",
        "count",
    ] {
        assert!(signature(name).is_some(), "{name}");
    }
    for aggregate in ["count", "math::sum", "math::mean", "array::group", "time::max"] {
        assert!(signature(aggregate).unwrap().aggregate, "{aggregate}");
    }
    assert!(!signature("math::abs").unwrap().aggregate);
    eprintln!("{per_module:?}");
}

/// The one FunctionArguments diagnostic of `query` on the store: severity, span text and text.
fn diagnosed(query: &str) -> Option<(validate::Severity, String, String)> {
    let report = validate::validate(&store_schema(), query);
    let mut found = report
        .diagnostics
        .iter()
        .filter(|d| d.class == Class::FunctionArguments);
    let d = found.next()?;
    assert!(
        found.next().is_none(),
        "one diagnostic per call: {}",
        report.render(query)
    );
    Some((d.severity, d.span.text(query).to_owned(), d.to_string()))
}

#[test]
fn a_wrong_call_is_one_error_with_the_signature() {
    use validate::Severity::{Error, Warning};
    let (severity, at, text) = diagnosed("SELECT name, math::round(price, 2) AS p FROM product LIMIT 5").unwrap();
    assert_eq!((severity, at.as_str()), (Error, "math::round(price, 2)"));
    assert!(
        text.starts_with("math::round takes 1 argument: math::round(number) -> number, but got 2 arguments; "),
        "{text}"
    );
    assert!(text.contains("math::fixed(number, int)"), "{text}");

    // Too few, with an example of the full call.
    let (_, at, text) = diagnosed("SELECT name FROM customer WHERE string::starts_with(name) LIMIT 5").unwrap();
    assert_eq!(at, "string::starts_with(name)");
    assert!(
        text.contains("takes 2 arguments: string::starts_with(string, string) -> bool, but got 1 argument"),
        "{text}"
    );
    assert!(text.contains("string::starts_with('a', 'a')"), "{text}");

    // The argument's type, its field and the engine's outcome; the span is the call that is wrong.
    let (severity, at, text) =
        diagnosed("SELECT name FROM customer WHERE time::month(joined) = time::month('2024-05-01') LIMIT 5").unwrap();
    assert_eq!((severity, at.as_str()), (Error, "time::month('2024-05-01')"));
    assert!(
        text.contains(
            "argument 1 of time::month is a string, but time::month(datetime?) -> int takes a datetime there"
        ),
        "{text}"
    );
    assert!(text.contains("d'2024-01-01T00:00:00Z'"), "{text}");
    let (_, _, text) = diagnosed("SELECT name FROM product WHERE string::contains(price, '9') LIMIT 5").unwrap();
    assert!(
        text.contains("argument 1 of string::contains is product.price, a decimal"),
        "{text}"
    );

    // An aggregate over strings: a wrong answer under GROUP BY, so an error too.
    let (severity, _, text) =
        diagnosed("SELECT category, math::sum(name) AS s FROM product GROUP BY category LIMIT 5").unwrap();
    assert_eq!(severity, Error);
    assert!(text.contains("answers 0 or NONE"), "{text}");

    // An aggregate's extra argument under GROUP BY is ignored by the engine: a warning.
    let (severity, _, text) = diagnosed("SELECT count(name, tier) AS n FROM customer GROUP ALL LIMIT 5").unwrap();
    assert_eq!(severity, Warning);
    assert!(text.contains("ignores the extra ones"), "{text}");
    let (severity, _, _) = diagnosed("SELECT math::sum(price, 2) AS n FROM product LIMIT 5").unwrap();
    assert_eq!(severity, Error);

    // A nested call's declared result.
    let (_, at, text) = diagnosed("SELECT string::len(time::now()) AS n FROM customer LIMIT 5").unwrap();
    assert_eq!(at, "string::len(time::now())");
    assert!(text.contains("argument 1 of string::len is a datetime"), "{text}");

    // The name in any case, as the parser reads it.
    let (_, at, _) = diagnosed("SELECT MATH::ABS(name) AS a FROM product LIMIT 5").unwrap();
    assert_eq!(at, "MATH::ABS(name)");

    // In JSON, with the class name.
    let query = "SELECT string::len(name, 1) AS n FROM customer LIMIT 5";
    let json = validate::validate(&store_schema(), query).to_json(query);
    assert_eq!(json["diagnostics"][0]["class"], "FunctionArguments");
}

#[test]
fn what_is_not_known_is_not_flagged() {
    for query in [
        // Unknown types: parameters, casts to a kind the table accepts, a subquery's value.
        "SELECT name FROM customer WHERE string::len($prefix) > 2 LIMIT 5",
        "SELECT math::abs(<number> name) AS a FROM product LIMIT 5",
        "SELECT string::len(<string> joined) AS n FROM customer LIMIT 5",
        // An aggregate given one row's number under GROUP BY.
        "SELECT category, math::sum(price) AS s, math::stddev(price) AS sd FROM product GROUP BY category LIMIT 5",
        "SELECT status, time::min(placed_at) AS first FROM purchase GROUP BY status LIMIT 5",
        "SELECT count() AS n, count(name) AS named FROM customer GROUP ALL LIMIT 5",
        // Variadic and optional arguments.
        "SELECT string::concat(name, ' ', tier, '!') AS label FROM customer LIMIT 5",
        "SELECT string::join(', ', name, tier) AS label FROM customer LIMIT 5",
        "SELECT string::slice(name, 0, 3) AS s, string::slice(name, 1) AS t FROM customer LIMIT 5",
        "SELECT time::year() AS now, time::year(joined) AS then FROM customer LIMIT 5",
        // Numbers for ints (a whole float is accepted), records for objects.
        "SELECT math::fixed(price, 2) AS p, array::at(->placed->purchase, 0) AS first FROM product LIMIT 5",
        "SELECT record::id(id) AS key, record::tb(id) AS tb, meta::id(id) AS m FROM customer LIMIT 5",
        // A nested call's result is its signature's, not the resolver's guess.
        "SELECT array::sort(array::group(name)) AS names FROM customer GROUP ALL LIMIT 5",
        "SELECT math::fixed(string::distance::levenshtein(name, 'x'), 2) AS d FROM customer LIMIT 5",
        "SELECT math::round(string::similarity::jaro(name, 'Mei') * 100) AS s FROM customer LIMIT 5",
        // Methods are left alone; a function outside the table is too.
        "SELECT name.len() AS n FROM customer LIMIT 5",
    ] {
        let report = validate::validate(&store_schema(), query);
        assert!(
            !report.has(Class::FunctionArguments),
            "{query}: {}",
            report.render(query)
        );
    }
}
