//! What a block costs in tokens as pruning counts it, and the separator the costs include.
//!
//! With the `tokens` feature each cost is the exact `o200k_base` count of a table's block
//! followed by the `"\n\n"` that separates it from the next one. BPE pre-tokenisation never
//! joins the `;` that ends a block with the `DEFINE` that starts the next, so the sum of the
//! chosen tables' costs is the count of the pruned block plus at most the one token of the last
//! separator, which the block does not carry: filling to the budget by this sum never exceeds
//! it. Without the `tokens` feature the front end refuses `prune(...)` (an error at the
//! attribute naming the feature), so a build script and the CLI write the same bytes.

use crate::ir::Schema;

/// The separator between two tables in the schema block.
pub const SEPARATOR: &str = "\n\n";

/// How the stored token costs were counted, as `schema.surql`'s pruning section says.
pub const COSTS: &str = "exact o200k_base token counts";

/// Tokens in `text`: the exact `o200k_base` count.
pub fn cost(text: &str) -> usize {
    #[cfg(feature = "tokens")]
    {
        crate::tokens::Encoding::O200kBase.count(text)
    }
    // Never reaches `schema.surql`: the front end refuses `prune(...)` without `tokens`
    // (`front::resolve`), so this only keeps the module compiling in such a build.
    #[cfg(not(feature = "tokens"))]
    {
        text.len()
    }
}

/// The cost of the whole schema block, as this build counts it.
pub fn full_block_cost(schema: &Schema) -> usize {
    cost(&crate::surql::info::schema_block(schema))
}
