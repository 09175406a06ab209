//! The schema-wide settings in the IR: what the prompt exposes and hints, the few-shot pool, the agent, the per-user scope, lint levels, pruning and token budgets.

#[cfg(feature = "ir-serde")]
use super::{unset, yes};

/// Schema-wide settings: what the prompt shows and how the agent is set up.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Settings {
    /// Table names the prompt exposes, in prompt order.
    pub exposed: Vec<String>,
    /// The lines `fn::value_hints` prints, in this order.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub value_hints: Vec<ValueHint>,
    /// The few-shot pool: its table, embedding size and how many examples the prompt shows.
    pub examples: ExampleSettings,
    /// The read-only database user generated queries run as.
    pub agent: AgentSettings,
    /// The row limit the default rules ask the model for.
    pub max_rows: u32,
    /// Whether the schema block drops `TYPE NORMAL` and a relation's derived `in`/`out` lines.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub compact: bool,
    /// Token budgets the schema sets for itself; checked by `surqlc audit` and `build.rs`.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub budget: Budget,
    /// Question-specific pruning of the schema block (`prune(...)`); `None` unless the schema asks for it.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub prune: Option<Prune>,
    /// The validator's levels for this schema's queries (`lints(allow(...), deny(...))`).
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "Lints::is_empty"))]
    pub lints: Lints,
    /// The per-user agent (`scope(end_user = ...)`); `None` unless the schema asks for it.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub scope: Option<Scope>,
}

/// `scope(end_user = Customer, access = "...", token = "...", session = "...")`: a second, per-user
/// agent that signs in as one row of the end-user table and reads only the rows its tables'
/// `owner` routes lead back to that row (shared tables whole).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Scope {
    /// The end-user table (`customer`): its rows are the users the agent answers for.
    pub end_user: String,
    /// The record access the application signs users in through (`customer_agent`).
    pub access: String,
    /// How long a signed-in user's token lasts (`15m` unless set), as SurrealQL writes a duration.
    pub token_duration: String,
    /// How long a signed-in user's session lasts (`1h` unless set).
    pub session_duration: String,
    /// The team's own identity provider (`scope(jwks = "URL", issuer = "...", audience = "...")`):
    /// `surqlc mcp --per-user` also accepts its JWTs; `None` unless the schema names one.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "Option::is_none"))]
    pub oidc: Option<Oidc>,
}

/// An OpenID Connect provider whose JWTs name end users: verified against its JWKS, its issuer
/// and audience checked, `user_claim` (`sub`) the end-user record's key
/// (`type::record('<end_user>', $claim)`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Oidc {
    /// Where the provider publishes its signing keys (a JWK Set): `https://`, or `http://` on loopback.
    pub jwks: String,
    /// The `iss` every token must carry, exactly.
    pub issuer: String,
    /// An `aud` every token must carry (one of them, when the token lists several).
    pub audience: String,
    /// The claim whose value is the end-user record's key (`sub` unless set).
    pub user_claim: String,
}

/// The claim that names the end user when `user_claim` is not set.
pub const DEFAULT_USER_CLAIM: &str = "sub";

impl Oidc {
    /// Why `url` cannot be a JWKS address, if it cannot: it must be `https://HOST/...`, or
    /// `http://` to a loopback host (a key set fetched in the clear could be replaced on the way).
    pub fn jwks_rule(url: &str) -> Result<(), String> {
        let plain = url.strip_prefix("http://");
        let Some(rest) = url.strip_prefix("https://").or(plain) else {
            return Err(
                "write the JWKS address as https://HOST/PATH (e.g. https://idp.example.com/.well-known/jwks.json)"
                    .into(),
            );
        };
        let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
        let host = match authority.strip_prefix('[') {
            Some(v6) => v6.split(']').next().unwrap_or_default(),
            None => authority.split(':').next().unwrap_or_default(),
        };
        if host.is_empty() || authority.contains('@') || url.chars().any(char::is_whitespace) {
            return Err("write the JWKS address as https://HOST/PATH, without credentials or spaces".into());
        }
        let loopback = host == "localhost" || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback());
        if plain.is_some() && !loopback {
            return Err(format!(
                "use https:// for {host}: http:// is only for a loopback provider (127.0.0.1, localhost)"
            ));
        }
        Ok(())
    }

    /// Why `value` cannot be an issuer or an audience, if it cannot: it must be set, without
    /// spaces at its ends (a token's claim is compared exactly).
    pub fn text_rule(value: &str) -> Result<(), String> {
        if value.trim().is_empty() {
            Err("must not be empty".into())
        } else if value.trim() != value {
            Err("must not start or end with a space (it is compared exactly)".into())
        } else {
            Ok(())
        }
    }

    /// Why `claim` cannot name the end user's claim, if it cannot: a claim name of letters,
    /// digits, `_`, `-`, `.`, `:` or `/` (`sub`, `email`, `https://example.com/user`).
    pub fn claim_rule(claim: &str) -> Result<(), String> {
        let ok = !claim.is_empty()
            && claim
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '.' | ':' | '/'));
        if ok {
            Ok(())
        } else {
            Err("write a claim name such as \"sub\" or \"email\"".into())
        }
    }

    /// Every rule at once: the first value that breaks one, and why.
    pub fn check(&self) -> Result<(), String> {
        Oidc::jwks_rule(&self.jwks).map_err(|why| format!("jwks {:?}: {why}", self.jwks))?;
        Oidc::text_rule(&self.issuer).map_err(|why| format!("issuer {why}"))?;
        Oidc::text_rule(&self.audience).map_err(|why| format!("audience {why}"))?;
        Oidc::claim_rule(&self.user_claim).map_err(|why| format!("user_claim {:?}: {why}", self.user_claim))
    }
}

/// `lints(allow(SQ0204), warn(SQ0202), deny(SQ0902))`: codes (`crate::codes`) whose diagnostics
/// are dropped (`allow`), reported as warnings (`warn`) or made errors (`deny`). An error class may
/// be allowed or made a warning only where the engine does not fail.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Lints {
    /// Codes whose diagnostics are dropped.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub allow: Vec<String>,
    /// Codes reported as warnings.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub warn: Vec<String>,
    /// Codes made errors: the query is refused.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub deny: Vec<String>,
}

impl Lints {
    /// Whether no code has a level of its own (every code keeps its default).
    pub fn is_empty(&self) -> bool {
        self.allow.is_empty() && self.warn.is_empty() && self.deny.is_empty()
    }

    /// `other`'s levels over these: a code `other` names takes its level from `other`.
    pub fn override_with(&mut self, other: &Lints) {
        for (codes, level) in [(&other.allow, 0), (&other.warn, 1), (&other.deny, 2)] {
            for code in codes {
                for list in [&mut self.allow, &mut self.warn, &mut self.deny] {
                    list.retain(|c| !c.eq_ignore_ascii_case(code));
                }
                [&mut self.allow, &mut self.warn, &mut self.deny][level].push(code.clone());
            }
        }
    }
}

/// `prune(budget = N, always(T, ...), mix = "...")`: the prompt carries only the tables a question needs.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Prune {
    /// The most tokens (o200k_base) the pruned schema block may cost.
    pub budget: u32,
    /// Tables every pruned prompt shows, in prompt order.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub always: Vec<String>,
    /// How tables are ranked against the question (`mix = "fulltext"` unless set).
    pub mix: RetrievalMix,
    /// Field-level pruning: a pruned table shows its links and the fields the question needs,
    /// and names the others in one line (`prune(fields = false)` shows every field).
    #[cfg_attr(feature = "ir-serde", serde(default = "yes"))]
    pub fields: bool,
}

/// Whether `value` is its type's default (`None`, `false`, empty): the IR's JSON leaves such
/// fields out, and `serde(default)` fills them back.

impl Default for Prune {
    /// A 2,000-token block, no table always included, full-text retrieval, field-level pruning.
    fn default() -> Self {
        Prune {
            budget: 2000,
            always: Vec::new(),
            mix: RetrievalMix::FullText,
            fields: true,
        }
    }
}

/// How pruning ranks tables against the question.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum RetrievalMix {
    /// BM25 over each table's names and comments.
    FullText,
    /// BM25 plus cosine similarity of the question's embedding to the table embeddings the application stored.
    FullTextVector,
}

impl RetrievalMix {
    /// Every mix, in the order error messages list them.
    pub const ALL: [RetrievalMix; 2] = [RetrievalMix::FullText, RetrievalMix::FullTextVector];

    /// The spelling in `prune(mix = "...")`.
    pub fn name(self) -> &'static str {
        match self {
            RetrievalMix::FullText => "fulltext",
            RetrievalMix::FullTextVector => "fulltext+vector",
        }
    }

    /// The mix spelled `name` in `prune(mix = "...")`; `None` for an unknown spelling.
    pub fn from_name(name: &str) -> Option<RetrievalMix> {
        RetrievalMix::ALL.into_iter().find(|m| m.name() == name)
    }
}

/// Token budgets for the schema block (counted in the audit's encoding, `o200k_base` unless told).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Budget {
    /// The most tokens the whole block may cost.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub block: Option<u32>,
    /// The most tokens any one table may cost.
    #[cfg_attr(feature = "ir-serde", serde(default, skip_serializing_if = "unset"))]
    pub table: Option<u32>,
}

/// One line of `fn::value_hints()`.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub enum ValueHint {
    /// `table.field: a, b, c`: the distinct present values, at most `limit` of them
    /// (past it: `table.field (N distinct, first M): ...`).
    Distinct {
        /// The field whose values are listed.
        field: FieldRef,
        /// The most values listed in full.
        limit: u32,
    },
    /// `table ids (N total): ⟨a⟩, b, ...`: the record keys as the engine prints them, at most `limit`.
    Ids {
        /// The table whose record keys are listed.
        table: String,
        /// The most keys listed in full.
        limit: u32,
    },
    /// `table.field range: min to max` over the present values (numbers, datetimes, strings).
    Range {
        /// The field whose smallest and largest values are printed.
        field: FieldRef,
    },
    /// `table.field span: 2022-01-04 to 2025-11-30`: a datetime field's earliest and latest
    /// present values at day precision (UTC); no line while the field holds none. Added for every
    /// exposed datetime field unless `value_hints(time_spans = false)`.
    Span {
        /// The datetime field whose earliest and latest days are printed.
        field: FieldRef,
    },
    /// A line of text, printed as written.
    Note(String),
}

impl ValueHint {
    /// The table the hint describes; `None` for a note, which belongs to no table.
    pub fn table(&self) -> Option<&str> {
        match self {
            ValueHint::Distinct { field, .. } | ValueHint::Range { field } | ValueHint::Span { field } => {
                Some(&field.table)
            }
            ValueHint::Ids { table, .. } => Some(table),
            ValueHint::Note(_) => None,
        }
    }
}

/// How many values a distinct or id hint lists before it prints the count and a sample.
pub const DEFAULT_HINT_LIMIT: u32 = 20;

impl Budget {
    /// Each limit of `self`, else `fallback`'s (a command line's or builder's flags over the schema's own).
    pub fn or(&self, fallback: &Budget) -> Budget {
        Budget {
            block: self.block.or(fallback.block),
            table: self.table.or(fallback.table),
        }
    }
}

/// A field of a table, by database names (`order.status`), as value hints name it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct FieldRef {
    /// The table name.
    pub table: String,
    /// The field's path in the table (`status`, `address.country`).
    pub field: String,
}

/// The few-shot pool.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExampleSettings {
    /// The table that holds the examples (`query_example` unless set); it must not clash with a schema table.
    pub table: String,
    /// Embedding dimension of the HNSW index.
    pub dimension: u32,
    /// How many examples the prompt shows.
    pub k: u32,
    /// HNSW search breadth.
    pub ef: u32,
}

/// The read-only `VIEWER` user that runs generated queries.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "ir-serde", derive(serde::Serialize, serde::Deserialize))]
pub struct AgentSettings {
    /// The database user's name (`agent` unless set).
    pub user: String,
    /// How long its token lasts (`1h` unless set), as SurrealQL writes a duration.
    pub token_duration: String,
    /// How long its session lasts (`12h` unless set).
    pub session_duration: String,
}

impl Default for Settings {
    /// No tables exposed, no value hints, the default pool and agent, 50 rows, the engine rendering, no budget.
    fn default() -> Self {
        Settings {
            exposed: Vec::new(),
            value_hints: Vec::new(),
            examples: Default::default(),
            agent: Default::default(),
            max_rows: 50,
            compact: false,
            budget: Default::default(),
            prune: None,
            lints: Lints::default(),
            scope: None,
        }
    }
}

impl Default for ExampleSettings {
    fn default() -> Self {
        ExampleSettings {
            table: "query_example".into(),
            dimension: 384,
            k: 3,
            ef: 40,
        }
    }
}

impl Default for AgentSettings {
    fn default() -> Self {
        AgentSettings {
            user: "agent".into(),
            token_duration: "1h".into(),
            session_duration: "12h".into(),
        }
    }
}
