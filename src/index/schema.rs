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

/// The analyzer of the text fields: words (letters and digits), an
/// abbreviation's plural made singular ("PDFs" finds "PDF": the stemmer
/// leaves a word without a vowel alone), lower-cased, folded to ASCII
/// ("Méhul" finds "Mehul" and back), English-stemmed.
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
        .filter(AbbreviationPlural)
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

/// Token filter: an abbreviation's plural ("PDFs", "LLMs", "GPU2s": two or
/// more capitals or digits, then a lower-case "s") loses its "s".
#[derive(Clone)]
struct AbbreviationPlural;

impl tantivy::tokenizer::TokenFilter for AbbreviationPlural {
    type Tokenizer<T: tantivy::tokenizer::Tokenizer> = AbbreviationPlural1<T>;

    fn transform<T: tantivy::tokenizer::Tokenizer>(self, tokenizer: T) -> AbbreviationPlural1<T> {
        AbbreviationPlural1(tokenizer)
    }
}

#[derive(Clone)]
struct AbbreviationPlural1<T>(T);

impl<T: tantivy::tokenizer::Tokenizer> tantivy::tokenizer::Tokenizer for AbbreviationPlural1<T> {
    type TokenStream<'a> = AbbreviationPluralStream<T::TokenStream<'a>>;

    fn token_stream<'a>(&'a mut self, text: &'a str) -> Self::TokenStream<'a> {
        AbbreviationPluralStream(self.0.token_stream(text))
    }
}

struct AbbreviationPluralStream<S>(S);

impl<S: tantivy::tokenizer::TokenStream> tantivy::tokenizer::TokenStream
    for AbbreviationPluralStream<S>
{
    fn advance(&mut self) -> bool {
        if !self.0.advance() {
            return false;
        }
        let text = &mut self.0.token_mut().text;
        if abbreviation_plural(text) {
            text.pop();
        }
        true
    }

    fn token(&self) -> &tantivy::tokenizer::Token {
        self.0.token()
    }

    fn token_mut(&mut self) -> &mut tantivy::tokenizer::Token {
        self.0.token_mut()
    }
}

/// "PDFs", "LLMs", "GPU2s": an abbreviation (capitals and digits, at least
/// two capitals) with a plural "s".
fn abbreviation_plural(word: &str) -> bool {
    word.strip_suffix('s').is_some_and(|stem| {
        stem.len() >= 2
            && stem
                .bytes()
                .all(|b| b.is_ascii_uppercase() || b.is_ascii_digit())
            && stem.bytes().filter(u8::is_ascii_uppercase).count() >= 2
    })
}
