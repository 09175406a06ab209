//! Question-specific pruning made in the application: what `schema.surql`'s pruning section knows before any question, read once per connection; `fn::pruned_search`'s searches per question; the rest of `fn::pruned_select`'s choice and `fn::pruned_choice_block`'s block done here, to the same tables and bytes, without the database's closures.
//!
//! The database functions stay what every other client calls. This is the same algorithm,
//! step for step (the SurrealQL array functions it mirrors are noted where their semantics
//! matter: `array::complement` keeps its first argument's order and duplicates, `array::intersect`
//! is a multiset intersection in its first argument's order, `array::distinct` keeps first
//! occurrences, `object::keys` is in key order), and
//! `tests/pruning.rs` and `benches/pruning.rs` check both give the same choice, block and
//! prompt on the benchmark's questions, budgets and mechanisms.

use super::{to_json, Result};
use crate::prune::DOC_TABLE;
use std::collections::{BTreeMap, HashMap};
use std::future::IntoFuture;
use surrealdb::{Connection, Surreal};

/// The per-call mechanisms of `fn::pruned_select` (its `$closure`, `$fields` and `$values`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Mechanisms {
    /// Relation closure: a relation brings its ends, seeds bring the tables joining them.
    pub closure: bool,
    /// Field-level pruning: compact blocks with the question's fields.
    pub fields: bool,
    /// Value linking: the tables holding the question's named things.
    pub values: bool,
}

/// A choice of tables: in prompt order and, with field-level pruning, the fields each shows besides its links.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Choice {
    /// The tables the pruned block shows, in prompt order.
    pub tables: Vec<String>,
    /// `None` without field-level pruning, or when the whole block fits the budget (every shown
    /// table's whole block).
    pub fields: Option<BTreeMap<String, Vec<ShownField>>>,
}

/// A field a compact block shows: the position of its first line in the table's block, its lines, its name.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct ShownField {
    /// Where its first line sits in the table's full block: fields are shown in this order.
    pub order: i64,
    /// Its lines of the block, as the full block has them.
    pub lines: String,
    /// The field's name (its path for a sub-field).
    pub name: String,
}

/// The pruning facts of one database, read once (see [`Pruner::load`]); cheap to share by reference.
#[derive(Debug, Clone)]
pub struct Pruner {
    settings: Settings,
    tables: HashMap<String, TableFacts>,
    /// `schema_doc_field`'s rows by their key, `[table, field]`.
    fields: HashMap<(String, String), FieldRow>,
}

/// `$schema_doc_settings`: what the pruning section's functions have baked in.
#[derive(Debug, Clone, serde::Deserialize)]
struct Settings {
    budget: u32,
    /// The cost of the whole schema block: when it fits, nothing is pruned.
    full: i64,
    // `least` and `least_compact` (the cheapest table's cost) are there for other applications; the
    // step's own check (a table costing more than what is left) makes them redundant here.
    seeds: usize,
    always: Vec<String>,
    fallback: Vec<String>,
    /// The exposed tables in prompt order.
    names: Vec<String>,
    fields: bool,
    vector: bool,
}

/// One table's facts (`$schema_doc_t`, `_g`, ... and its `schema_doc` row).
#[derive(Debug, Clone)]
struct TableFacts {
    cost: i64,
    group: i64,
    compact_cost: i64,
    compact_group: i64,
    position: usize,
    ends: Vec<String>,
    links: Vec<String>,
    neighbors: Vec<String>,
    adjacent: Vec<String>,
    /// Relations by the table at their other end, in key order (a SurrealQL object).
    bridges: BTreeMap<String, Vec<String>>,
    block: String,
    compact: String,
    head: String,
    kept: Vec<(i64, String)>,
    rest: Vec<String>,
}

/// What `fn::pruned_search` returns.
#[derive(Debug)]
struct Found {
    ranked: Vec<String>,
    matches: bool,
    linked: Vec<Linked>,
    /// The keys of the `schema_doc_field` rows to show.
    shown: Vec<(String, String)>,
}

/// What `fn::pruned_rank` returns.
#[derive(Debug, serde::Deserialize)]
struct Rank {
    ranked: Vec<String>,
    matches: bool,
}

#[derive(Debug, serde::Deserialize)]
struct Linked {
    tb: String,
    field: String,
}

#[derive(Debug, Clone, serde::Deserialize)]
struct FieldRow {
    tb: String,
    name: String,
    ord: i64,
    body: String,
    tokens: i64,
}

#[derive(Debug, serde::Deserialize)]
struct Row {
    name: String,
    block: String,
    compact: String,
    head: String,
    kept: Vec<(i64, String)>,
    rest: Vec<String>,
}

/// The graph parameters, each mapping every table to its value.
#[derive(Debug, serde::Deserialize)]
struct Graph {
    t: HashMap<String, i64>,
    g: HashMap<String, i64>,
    m: HashMap<String, i64>,
    h: HashMap<String, i64>,
    p: HashMap<String, usize>,
    e: HashMap<String, Vec<String>>,
    l: HashMap<String, Vec<String>>,
    n: HashMap<String, Vec<String>>,
    a: HashMap<String, Vec<String>>,
    b: HashMap<String, BTreeMap<String, Vec<String>>>,
}

/// The greedy fill's state: the tables taken (duplicates as SurrealQL keeps them) and their cost.
struct Fill<'a> {
    chosen: Vec<&'a str>,
    cost: i64,
}

/// What one question's choice reads besides the facts.
struct Ask<'a> {
    budget: i64,
    closure: bool,
    fields: bool,
    /// The cost of the question's shown fields per table.
    extra: HashMap<&'a str, i64>,
}

fn decode<T: serde::de::DeserializeOwned>(what: &str, value: surrealdb::types::Value) -> Result<T> {
    serde_json::from_value(to_json(value)).map_err(|e| {
        surrealdb::Error::internal(format!(
            "reading {what} of the pruning section (is schema.surql current?): {e}"
        ))
    })
}

/// `array::distinct`: first occurrences, in order.
fn distinct<T: PartialEq>(items: impl IntoIterator<Item = T>) -> Vec<T> {
    let mut out: Vec<T> = Vec::new();
    for item in items {
        if !out.contains(&item) {
            out.push(item);
        }
    }
    out
}

/// `array::intersect(a, b)`: each item of `a` that matches a not yet matched item of `b`, in `a`'s order.
fn intersect<'a>(a: &[&'a str], b: &[&str]) -> Vec<&'a str> {
    let mut left: Vec<&str> = b.to_vec();
    let mut out = Vec::new();
    for item in a {
        if let Some(at) = left.iter().position(|w| w == item) {
            left.remove(at);
            out.push(*item);
        }
    }
    out
}

impl Pruner {
    /// Reads the pruning facts of the database `db` is connected to (the owner's session or the
    /// agent's: the parameters and `schema_doc` are readable by both). `None` when its schema has
    /// no `prune(...)`. Read it again after applying a different `schema.surql`.
    pub async fn load<C: Connection>(db: &Surreal<C>) -> Result<Option<Pruner>> {
        let mut response = db.query(format!("RETURN ${DOC_TABLE}_settings")).await?.check()?;
        let settings: surrealdb::types::Value = response.take(0)?;
        if matches!(settings, surrealdb::types::Value::None | surrealdb::types::Value::Null) {
            return Ok(None);
        }
        let settings: Settings = decode("$schema_doc_settings", settings)?;
        let graph = ["t", "g", "m", "h", "p", "e", "l", "n", "a", "b"]
            .map(|k| format!("{k}: ${DOC_TABLE}_{k}"))
            .join(", ");
        let mut response = db
            .query(format!(
                "RETURN {{ {graph} }}; SELECT name, block, compact, head, kept, rest FROM {DOC_TABLE}; \
                 SELECT tb, name, ord, body, tokens FROM {DOC_TABLE}_field"
            ))
            .await?
            .check()?;
        let mut graph: Graph = decode("the graph parameters", response.take(0)?)?;
        let rows: Vec<Row> = decode("schema_doc", response.take(1)?)?;
        let field_rows: Vec<FieldRow> = decode("schema_doc_field", response.take(2)?)?;
        let fields = field_rows
            .into_iter()
            .map(|f| ((f.tb.clone(), f.name.clone()), f))
            .collect();
        let mut tables = HashMap::with_capacity(rows.len());
        for row in rows {
            let name = row.name;
            let missing = |what: &str| {
                surrealdb::Error::internal(format!(
                    "the pruning section has no {what} for table {name:?} (is schema.surql current?)"
                ))
            };
            let facts = TableFacts {
                cost: graph.t.remove(&name).ok_or_else(|| missing("cost"))?,
                group: graph.g.remove(&name).ok_or_else(|| missing("group cost"))?,
                compact_cost: graph.m.remove(&name).ok_or_else(|| missing("compact cost"))?,
                compact_group: graph.h.remove(&name).ok_or_else(|| missing("compact group cost"))?,
                position: graph.p.remove(&name).ok_or_else(|| missing("position"))?,
                ends: graph.e.remove(&name).unwrap_or_default(),
                links: graph.l.remove(&name).unwrap_or_default(),
                neighbors: graph.n.remove(&name).unwrap_or_default(),
                adjacent: graph.a.remove(&name).unwrap_or_default(),
                bridges: graph.b.remove(&name).unwrap_or_default(),
                block: row.block,
                compact: row.compact,
                head: row.head,
                kept: row.kept,
                rest: row.rest,
            };
            tables.insert(name, facts);
        }
        if let Some(missing) = settings.names.iter().find(|n| !tables.contains_key(*n)) {
            return Err(surrealdb::Error::internal(format!(
                "schema_doc has no row for table {missing:?} (is schema.surql current?)"
            )));
        }
        Ok(Some(Pruner {
            settings,
            tables,
            fields,
        }))
    }

    /// The budget `prune(budget = N)` set: what [`Pruner::prompt`] prunes to.
    pub fn budget(&self) -> u32 {
        self.settings.budget
    }

    /// Whether the whole schema block fits `budget` (then nothing is pruned).
    pub fn fits_whole(&self, budget: u32) -> bool {
        self.settings.full <= i64::from(budget)
    }

    /// The mechanisms the schema's own prompt uses: closure, value linking, and field-level pruning unless `prune(fields = false)`.
    pub fn built(&self) -> Mechanisms {
        Mechanisms {
            closure: true,
            fields: self.settings.fields,
            values: true,
        }
    }

    /// `fn::pruned_select(question, qvec, budget, closure, fields, values)`, made here: the
    /// searches of `fn::pruned_search` in the database, the rest in Rust. Also says whether any
    /// table shares a word with the question (`fn::pruned_matches`; `true` without searching
    /// when the whole block fits `budget`, since nothing is pruned then).
    pub async fn select<C: Connection>(
        &self,
        db: &Surreal<C>,
        question: &str,
        qvec: Option<&[f64]>,
        budget: u32,
        how: Mechanisms,
    ) -> Result<(Choice, bool)> {
        if self.fits_whole(budget) {
            return Ok((
                Choice {
                    tables: self.settings.names.clone(),
                    fields: None,
                },
                true,
            ));
        }
        let found = self.search(db, question, qvec, how).await?;
        Ok((self.choose(&found, budget, how), found.matches))
    }

    /// `fn::pruned_search`, its three searches sent at once (the engine runs them side by side).
    async fn search<C: Connection>(
        &self,
        db: &Surreal<C>,
        question: &str,
        qvec: Option<&[f64]>,
        how: Mechanisms,
    ) -> Result<Found> {
        let ask = |statement: &'static str| {
            db.query(statement)
                .bind(("question", question.to_owned()))
                .bind(("qvec", qvec.map(<[f64]>::to_vec)))
                .into_future()
        };
        let (rank, linked, fields) = futures_util::future::join3(
            ask("RETURN fn::pruned_rank($question, $qvec)"),
            ask(if how.values {
                "RETURN fn::pruned_value_links($question)"
            } else {
                "RETURN []"
            }),
            ask(if how.fields {
                "RETURN fn::pruned_field_matches($question)"
            } else {
                "RETURN []"
            }),
        )
        .await;
        let rank: Rank = decode("fn::pruned_rank's result", rank?.check()?.take(0)?)?;
        let linked: Vec<Linked> = decode("fn::pruned_value_links' result", linked?.check()?.take(0)?)?;
        let matches: Vec<(String, String)> = decode("fn::pruned_field_matches' result", fields?.check()?.take(0)?)?;
        // array::distinct(matches + the named things' fields), as fn::pruned_search has it.
        let shown = if how.fields {
            let named = linked.iter().map(|l| (l.tb.clone(), l.field.clone()));
            distinct(matches.into_iter().chain(named))
        } else {
            Vec::new()
        };
        Ok(Found {
            ranked: rank.ranked,
            matches: rank.matches,
            linked,
            shown,
        })
    }

    /// The rest of `fn::pruned_select` once the database has searched.
    fn choose(&self, found: &Found, budget: u32, how: Mechanisms) -> Choice {
        let candidates = self.candidates(found, how);
        // The rows `SELECT ... FROM` the keys finds: a key without a row is left out.
        let shown: Vec<&FieldRow> = found.shown.iter().filter_map(|key| self.fields.get(key)).collect();
        let mut extra: HashMap<&str, i64> = HashMap::new();
        for row in &shown {
            *extra.entry(row.tb.as_str()).or_default() += row.tokens;
        }
        let ask = Ask {
            budget: i64::from(budget),
            closure: how.closure,
            fields: how.fields,
            extra,
        };
        let mut fill = Fill {
            chosen: Vec::new(),
            cost: 0,
        };
        for candidate in candidates {
            fill = self.grow(fill, candidate, &ask);
        }
        if how.closure {
            let links = distinct(
                fill.chosen
                    .iter()
                    .flat_map(|t| self.tables[*t].links.iter().filter_map(|n| self.key(n))),
            );
            for link in links {
                fill = self.grow(fill, link, &ask);
            }
        }
        let mut positions: Vec<usize> = fill.chosen.iter().map(|t| self.tables[*t].position).collect();
        positions.sort_unstable();
        let tables: Vec<String> = positions
            .into_iter()
            .filter_map(|p| self.settings.names.get(p).cloned())
            .collect();
        let fields = how.fields.then(|| {
            let mut by_table: BTreeMap<String, Vec<ShownField>> = BTreeMap::new();
            for row in shown.iter().filter(|r| tables.contains(&r.tb)) {
                let shown = ShownField {
                    order: row.ord,
                    lines: row.body.clone(),
                    name: row.name.clone(),
                };
                let list = by_table.entry(row.tb.clone()).or_default();
                // The keys were made distinct, so each row comes once, as array::group collects it.
                list.push(shown);
            }
            by_table
        });
        Choice { tables, fields }
    }

    /// The tables `fn::pruned_select` tries, in order: the `always` tables, the seeds (tables with
    /// a compared value, then the best ranked), and with `closure` the tables joining two seeds,
    /// ranked tables beside a seed and the seeds' links, then the rest of the ranking; with no
    /// seed, the fallback list.
    fn candidates(&self, found: &Found, how: Mechanisms) -> Vec<&str> {
        let ranked: Vec<&str> = found.ranked.iter().filter_map(|n| self.key(n)).collect();
        let valued = distinct(found.linked.iter().filter_map(|l| self.key(&l.tb)));
        let mut seeds = distinct(valued.iter().chain(&ranked).copied());
        seeds.truncate(self.settings.seeds + valued.len());
        let always = self.settings.always.iter().filter_map(|n| self.key(n));
        if seeds.is_empty() {
            self.settings.fallback.iter().filter_map(|n| self.key(n)).collect()
        } else if how.closure {
            let around = |t: &str, f: fn(&TableFacts) -> &Vec<String>| -> Vec<&str> {
                self.tables
                    .get(t)
                    .map(|facts| f(facts).iter().filter_map(|n| self.key(n)).collect())
                    .unwrap_or_default()
            };
            let near_seeds: Vec<&str> = distinct(seeds.iter().flat_map(|t| around(t, |f| &f.neighbors)))
                .into_iter()
                .filter(|t| !seeds.contains(t))
                .collect();
            let joins = near_seeds
                .into_iter()
                .filter(|t| intersect(&around(t, |f| &f.neighbors), &seeds).len() >= 2);
            let adjacent: Vec<&str> = seeds.iter().flat_map(|t| around(t, |f| &f.adjacent)).collect();
            let related = intersect(&ranked, &adjacent);
            let links = seeds.iter().flat_map(|t| around(t, |f| &f.links));
            distinct(
                always
                    .chain(seeds.iter().copied())
                    .chain(joins)
                    .chain(related)
                    .chain(links)
                    .chain(ranked.iter().copied()),
            )
        } else {
            distinct(always.chain(seeds.iter().copied()).chain(ranked.iter().copied()))
        }
    }

    /// `fn::pruned_select`'s `$grow`: `name` and its group taken if they fit what is left. (The
    /// database also takes a lone table without relations at once; this general path gives it
    /// the same state.)
    fn grow<'a>(&'a self, fill: Fill<'a>, name: &'a str, ask: &Ask<'_>) -> Fill<'a> {
        let price = |t: &str| {
            let facts = &self.tables[t];
            let base = if ask.fields { facts.compact_cost } else { facts.cost };
            base + ask.extra.get(t).copied().unwrap_or(0)
        };
        // A table costing more than what is left is never taken, whatever its group.
        if fill.chosen.contains(&name) || fill.cost + price(name) > ask.budget {
            return fill;
        }
        let facts = &self.tables[name];
        let group = if ask.fields { facts.compact_group } else { facts.group };
        // array::complement([name] + ends, chosen): duplicates kept, as the database keeps them.
        let new: Vec<&str> = if ask.closure && group <= ask.budget {
            std::iter::once(name)
                .chain(facts.ends.iter().filter_map(|e| self.key(e)))
                .filter(|t| !fill.chosen.contains(t))
                .collect()
        } else {
            vec![name]
        };
        let mut have = fill.chosen.clone();
        have.extend(&new);
        let bridges: Vec<&str> = if ask.closure {
            let found = new.iter().flat_map(|t| {
                let by_end = &self.tables[*t].bridges;
                // object::keys is in key order; intersect with what is taken.
                let keys: Vec<&str> = by_end.keys().map(String::as_str).collect();
                intersect(&keys, &have)
                    .into_iter()
                    .flat_map(|o| by_end[o].iter().filter_map(|r| self.key(r)))
                    .collect::<Vec<_>>()
            });
            distinct(found).into_iter().filter(|r| !have.contains(r)).collect()
        } else {
            Vec::new()
        };
        let cost = fill.cost + new.iter().chain(&bridges).map(|t| price(t)).sum::<i64>();
        if cost <= ask.budget {
            have.extend(bridges);
            Fill { chosen: have, cost }
        } else {
            fill
        }
    }

    /// The table name as the facts spell it (borrowed from them), if it is one.
    fn key(&self, name: &str) -> Option<&str> {
        self.tables.get_key_value(name).map(|(k, _)| k.as_str())
    }

    /// `fn::pruned_choice_block(choice, budget)` when the whole block does not fit `budget`: the
    /// tables' whole blocks, or with fields each table's compact block with its shown fields put
    /// back in block order. (When it fits, the database's `fn::schema_context()` is the block.)
    pub fn block(&self, choice: &Choice) -> String {
        let blocks: Vec<String> = choice
            .tables
            .iter()
            .filter_map(|name| Some((name, self.tables.get(name)?)))
            .map(|(name, facts)| {
                let Some(fields) = &choice.fields else {
                    return facts.block.clone();
                };
                let Some(shown) = fields.get(name) else {
                    return facts.compact.clone();
                };
                let mut lines: Vec<(i64, &str)> = facts.kept.iter().map(|(o, l)| (*o, l.as_str())).collect();
                lines.extend(shown.iter().map(|f| (f.order, f.lines.as_str())));
                lines.sort();
                let rest: Vec<&str> = facts
                    .rest
                    .iter()
                    .filter(|r| !shown.iter().any(|f| f.name == **r))
                    .map(String::as_str)
                    .collect();
                crate::prune::fields::assemble(&facts.head, lines.into_iter().map(|(_, l)| l), &rest)
            })
            .collect();
        blocks.join(crate::prune::cost::SEPARATOR)
    }

    /// `fn::nl2surql_prompt_pruned(question, qvec)`, the same bytes: the choice made here, the
    /// text around it (value hints of the shown tables, examples) from `fn::pruned_prompt_for`.
    pub async fn prompt<C: Connection>(&self, db: &Surreal<C>, question: &str, qvec: &[f64]) -> Result<String> {
        self.prompt_with(db, question, Some(qvec)).await
    }

    /// [`Pruner::prompt`] with the embedding optional: without one the examples are the pool's
    /// by the question's words (BM25), as `fn::nl2surql_prompt_pruned(question, NONE)` gives them.
    pub async fn prompt_with<C: Connection>(
        &self,
        db: &Surreal<C>,
        question: &str,
        qvec: Option<&[f64]>,
    ) -> Result<String> {
        let budget = self.settings.budget;
        if self.fits_whole(budget) {
            return super::module::prompt_function(db, "fn::nl2surql_prompt_pruned", question, qvec).await;
        }
        let ranking_vector = qvec.filter(|_| self.settings.vector);
        let (choice, matches) = self.select(db, question, ranking_vector, budget, self.built()).await?;
        let mut schema = String::new();
        if !matches {
            schema.push_str(crate::prune::NO_MATCH_NOTE);
        }
        schema.push_str(&self.block(&choice));
        super::module::text(
            db.query("RETURN fn::pruned_prompt_for($question, $qvec, $tables, $schema)")
                .bind(("question", question.to_owned()))
                .bind(("qvec", qvec.map(<[f64]>::to_vec)))
                .bind(("tables", choice.tables))
                .bind(("schema", schema)),
        )
        .await
    }
}
