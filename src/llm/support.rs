//! The LLM tier of the claim-support judge ([`crate::support`]): one small
//! call per (claim, quote) pair, a few in flight at once. It only refines
//! the deterministic label: a deterministic `contradicts` stands whatever
//! the model says, and a failed or unreadable call leaves the deterministic
//! label in place.

use super::client::{LlmClient, Usage};
use super::parse::first_json_object;
use super::prompts::Prompts;
use crate::support::Support;
use futures::StreamExt;
use serde_json::{Value, json};

/// The schema sent with `llm.json_schema` on.
pub fn support_schema() -> Value {
    json!({
        "type": "object",
        "properties": {
            "label": {"type": "string", "enum": ["entails", "partial", "contradicts", "irrelevant"]},
            "reason": {"type": "string"}
        },
        "required": ["label"]
    })
}

/// Read `{"label": …, "reason": …}`.
pub fn parse_judgement(reply: &str) -> Option<(Support, String)> {
    let Ok(Value::Object(obj)) = first_json_object(reply) else {
        return None;
    };
    let label = match obj.get("label")?.as_str()?.trim().to_lowercase().as_str() {
        "entails" | "entailed" | "supports" => Support::Entails,
        "partial" => Support::Partial,
        "contradicts" | "contradicted" => Support::Contradicts,
        "irrelevant" | "unrelated" => Support::Irrelevant,
        _ => return None,
    };
    let reason = obj
        .get("reason")
        .and_then(Value::as_str)
        .unwrap_or("")
        .chars()
        .take(200)
        .collect();
    Some((label, reason))
}

/// Judge every pair; `None` for a pair whose call failed or whose reply
/// did not parse.
pub async fn judge(
    client: &LlmClient,
    pairs: &[(String, String)],
    prompts: &Prompts,
    concurrency: usize,
) -> (Vec<Option<(Support, String)>>, Usage) {
    let schema = support_schema();
    let mut calls = futures::stream::iter(pairs.iter().enumerate().map(|(i, (claim, quote))| {
        let message = prompts.support_message(claim, quote);
        let schema = &schema;
        async move { (i, client.chat("", &message, Some(schema)).await) }
    }))
    .buffer_unordered(concurrency.max(1));
    let mut out: Vec<Option<(Support, String)>> = vec![None; pairs.len()];
    let mut usage = Usage::default();
    while let Some((i, result)) = calls.next().await {
        if let Ok(reply) = result {
            usage = usage + reply.usage;
            out[i] = parse_judgement(&reply.content).map(|(l, r)| (l, client.redact(&r)));
        }
    }
    (out, usage)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn judgements_parse_leniently() {
        assert_eq!(
            parse_judgement(r#"{"label": "Partial", "reason": "only 1811"}"#),
            Some((Support::Partial, "only 1811".into()))
        );
        assert_eq!(
            parse_judgement("Sure: {\"label\":\"contradicts\"}").map(|j| j.0),
            Some(Support::Contradicts)
        );
        assert_eq!(parse_judgement(r#"{"label": "maybe"}"#), None);
        assert_eq!(parse_judgement("no json"), None);
    }
}
