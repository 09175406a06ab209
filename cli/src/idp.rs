//! `surqlc mcp --per-user`'s identity-provider flags (`--jwks`, `--issuer`, `--audience`, `--user-claim`, each over the schema's `scope(...)` key of the same name, checked by the schema's own rules; `--public-url` and `--scope` for hosted clients' OAuth).

use clap::Args;
use surqlc::exit::Failure;
use surqlc::ir::Oidc;

/// The team's identity provider, when `--per-user` accepts its JWTs.
#[derive(Args, Clone, Default)]
pub struct IdpArgs {
    /// With --per-user: also accept JWTs of the team's identity provider, verified against its JWKS at URL
    /// (https://, or http:// on loopback) [default: the schema's scope(jwks = ...)].
    #[arg(long, value_name = "URL", requires = "per_user")]
    jwks: Option<String>,
    /// The `iss` the provider's tokens must carry [default: the schema's scope(issuer = ...)].
    #[arg(long, value_name = "ISS", requires = "per_user")]
    issuer: Option<String>,
    /// The `aud` the provider's tokens must carry [default: the schema's scope(audience = ...)].
    #[arg(long, value_name = "AUD", requires = "per_user")]
    audience: Option<String>,
    /// The claim whose value is the end-user record's key: type::record('<end_user>', claim)
    /// [default: the schema's scope(user_claim = ...), else sub].
    #[arg(long, value_name = "CLAIM", requires = "per_user")]
    user_claim: Option<String>,
    /// With an identity provider: the MCP endpoint's URL as clients reach it (e.g. https://mcp.example.com/mcp),
    /// the protected resource its metadata names and a token's aud may carry [default: http://ADDR/mcp].
    #[arg(long, value_name = "URL", requires = "per_user")]
    public_url: Option<String>,
    /// With an identity provider: a scope every token must grant (its scope or scp claim), else 403; repeatable.
    #[arg(long = "scope", value_name = "S", requires = "per_user")]
    scopes: Vec<String>,
}

impl IdpArgs {
    /// `--public-url` and `--scope`: the protected resource's URL and the scopes its tokens must grant.
    pub fn resource(&self) -> (Option<String>, Vec<String>) {
        (self.public_url.clone(), self.scopes.clone())
    }

    /// The provider: each flag over the schema's setting; `None` when neither names a JWKS. A
    /// value that breaks the schema's rule, or a JWKS without an issuer or audience, is bad input.
    pub fn provider(&self, schema: Option<&Oidc>) -> Result<Option<Oidc>, Failure> {
        let pick = |flag: &Option<String>, written: Option<&String>| flag.clone().or_else(|| written.cloned());
        let jwks = pick(&self.jwks, schema.map(|o| &o.jwks));
        let issuer = pick(&self.issuer, schema.map(|o| &o.issuer));
        let audience = pick(&self.audience, schema.map(|o| &o.audience));
        let user_claim = pick(&self.user_claim, schema.map(|o| &o.user_claim));
        let Some(jwks) = jwks else {
            let described = self.issuer.is_some() || self.audience.is_some() || self.user_claim.is_some();
            if described || self.public_url.is_some() || !self.scopes.is_empty() {
                return Err(Failure::BadInput(
                    "error: --issuer, --audience, --user-claim, --public-url and --scope describe an identity provider: \
                     give its --jwks URL too (or scope(jwks = \"...\") in the schema)"
                        .into(),
                ));
            }
            return Ok(None);
        };
        let missing = |what: &str| {
            Failure::BadInput(format!(
                "error: --jwks needs --{what} (or scope({what} = \"...\") in the schema): a token is accepted only \
                 from the provider's issuer and for this application's audience"
            ))
        };
        let provider = Oidc {
            jwks,
            issuer: issuer.ok_or_else(|| missing("issuer"))?,
            audience: audience.ok_or_else(|| missing("audience"))?,
            user_claim: user_claim.unwrap_or_else(|| surqlc::ir::DEFAULT_USER_CLAIM.to_owned()),
        };
        provider
            .check()
            .map_err(|why| Failure::BadInput(format!("error: the identity provider's {why}")))?;
        Ok(Some(provider))
    }
}
