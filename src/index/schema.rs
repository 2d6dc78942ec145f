//! The Tantivy schema, in one place.

use tantivy::schema::{
    BytesOptions, Field, INDEXED, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing,
    TextOptions,
};

/// Field handles of the chunk schema.
#[derive(Clone, Copy)]
pub struct Fields {
    pub chunk_id: Field,
    pub source_id: Field,
    pub source_title: Field,
    pub location: Field,
    pub body: Field,
    pub start: Field,
    pub end: Field,
    pub ordinal: Field,
    pub tokens: Field,
    /// 1-based line / page where the chunk starts (0: not applicable).
    pub line: Field,
    pub page: Field,
    pub vector: Field,
}

/// The analyzer of the text fields: words (letters and digits), lower-cased,
/// folded to ASCII ("Méhul" finds "Mehul" and back), English-stemmed.
/// Registered on every opened index by [`register`].
pub const ANALYZER: &str = "en_fold";

/// Register [`ANALYZER`] on `index` (tokenizers are not stored in the index).
pub fn register(index: &tantivy::Index) {
    use tantivy::tokenizer::{
        AsciiFoldingFilter, Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer,
        TextAnalyzer,
    };
    let analyzer = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(AsciiFoldingFilter)
        .filter(Stemmer::new(Language::English))
        .build();
    index.tokenizers().register(ANALYZER, analyzer);
}

pub fn build() -> (Schema, Fields) {
    let mut b = Schema::builder();
    let text = TextOptions::default().set_stored().set_indexing_options(
        TextFieldIndexing::default()
            .set_tokenizer(ANALYZER)
            .set_index_option(IndexRecordOption::WithFreqsAndPositions),
    );
    let fields = Fields {
        chunk_id: b.add_text_field("chunk_id", STRING | STORED),
        source_id: b.add_text_field("source_id", STRING | STORED),
        source_title: b.add_text_field("source_title", text.clone()),
        location: b.add_text_field("location", text.clone()),
        body: b.add_text_field("body", text),
        start: b.add_u64_field("start", STORED),
        end: b.add_u64_field("end", STORED),
        ordinal: b.add_u64_field("ordinal", STORED | INDEXED),
        tokens: b.add_u64_field("tokens", STORED),
        line: b.add_u64_field("line", STORED),
        page: b.add_u64_field("page", STORED),
        vector: b.add_bytes_field("vector", BytesOptions::default().set_stored()),
    };
    (b.build(), fields)
}
