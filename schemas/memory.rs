//! An agent's filesystem memory: one `file` table holding a tree of folders and files, with the
//! indexes that make it searchable by name, by word and by meaning.
//!
//! The design follows what SurrealDB users publish for agent memory: a folder is a file without
//! content; `parent_key` mirrors the parent's key (the root spelled `'root'`) because a UNIQUE
//! index skips rows where a field is NONE and the engine refuses to index a COMPUTED field; `path`
//! and `is_folder` are computed on read.

use serde::{Deserialize, Serialize};
use surqlc::runtime::{Datetime, Link};
use surqlc_macros::{Schema, Table};

/// The memory's prompt settings and its one analyzer.
#[derive(Schema)]
#[surqlc(
    expose(File),
    analyzer(
        name = "en",
        tokenizers(blank, class, camel, punct),
        filters("lowercase", "snowball(english)"),
        comment = "English words, stemmed: 'deploying' matches 'deploy'."
    ),
    value_hints(note("folders have no content; a file at the root has parent NONE and parent_key 'root'")),
    examples(dimension = 4, k = 2, ef = 40)
)]
pub struct Memory;

/// A file or a folder of the agent's memory. Find by path: WHERE path = '/projects/deploy.md'.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, Table)]
#[surqlc(
    index(name = "file_parent_name", fields(parent_key, name), unique),
    index(
        name = "file_content",
        fields(content),
        fulltext(analyzer = "en", bm25(1.2, 0.75), highlights)
    ),
    index(
        name = "file_embedding",
        fields(embedding),
        hnsw(dimension = 4, dist = "cosine", type = "f32")
    ),
    permissions(select = full, create = full, update = full, delete = "parent != NONE")
)]
pub struct File {
    /// The name within its folder, e.g. 'notes.md'.
    #[surqlc(assert = "$value != '' && !$value.contains('/')")]
    pub name: String,
    /// The folder holding this entry; NONE at the root.
    #[surqlc(default = "NONE", reference(on_delete = "cascade"))]
    pub parent: Option<Link<File>>,
    /// The parent's key, or 'root' at the root: what the unique (parent_key, name) index reads.
    #[surqlc(value = "IF parent IS NONE { 'root' } ELSE { <string> record::id(parent) }")]
    pub parent_key: String,
    /// The text of a file; NONE for a folder.
    pub content: Option<String>,
    /// The full path from the root, e.g. '/projects/deploy.md'.
    #[surqlc(computed = "IF parent IS NONE { '/' + name } ELSE { parent.path + '/' + name }")]
    pub path: String,
    /// Whether this is a folder (it has no content).
    #[surqlc(computed = "content IS NONE")]
    pub is_folder: bool,
    /// When the entry was created.
    #[surqlc(default = "time::now()", readonly)]
    pub created_at: Datetime,
    /// When the entry was last written.
    #[surqlc(value = "time::now()")]
    pub updated_at: Datetime,
    /// The content's embedding, for recall by meaning.
    pub embedding: Option<Vec<f32>>,
}
