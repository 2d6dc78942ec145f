//! The LLM tier of the claim-support judge ([`crate::support`]): one small
//! call per (claim, quote) pair, a few in flight at once. It only refines
//! the deterministic label: a deterministic `contradicts` stands whatever
//! the model says, and a failed or unreadable call leaves the deterministic
//! label in place.

use super::parse::first_json_object;
use super::prompts::Prompts;
use crate::provider::{LlmClient, Usage};
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

/// Ask the judge about every claim that says something and that the
/// deterministic tier did not find contradicted, against the first located quote it cites (`quotes[n - 1]`:
/// the source's words of snippet `n` and its chunk), and take its label
/// where it gave one. A failed or cancelled run changes nothing.
pub fn refine(
    client: &LlmClient,
    prompts: &Prompts,
    cancel: Option<&crate::provider::Cancel>,
    claims: &mut [crate::answer::Claim],
    quotes: &[Option<(&str, &str)>],
) -> Usage {
    let asks: Vec<(usize, (String, String))> = claims
        .iter()
        .enumerate()
        .filter(|(_, c)| c.support.is_some_and(|s| s != Support::Contradicts))
        .filter(|(_, c)| crate::answer::says_something(&c.text))
        // A claim that also cites a quote with no source words (one that
        // failed validation, a model's invention) keeps the deterministic
        // label: its substance may be the invention's, which no judge of
        // the other quote can see.
        .filter(|(_, c)| {
            c.citations.iter().all(|&n| {
                n.checked_sub(1)
                    .and_then(|i| quotes.get(i))
                    .is_none_or(Option::is_some)
            })
        })
        .filter_map(|(i, c)| {
            let q = c
                .citations
                .iter()
                .find_map(|&n| quotes.get(n.checked_sub(1)?).copied().flatten())?;
            Some((i, (c.text.clone(), q.0.to_string())))
        })
        // A summary is a few sentences: a reply of hundreds is not judged
        // call by call past the first.
        .take(64)
        .collect();
    if asks.is_empty() {
        return Usage::default();
    }
    let pairs: Vec<(String, String)> = asks.iter().map(|(_, p)| p.clone()).collect();
    let concurrency = client.config().rerank_concurrency;
    let Ok((labels, usage)) =
        super::block_on_until(judge(client, &pairs, prompts, concurrency), cancel)
    else {
        return Usage::default();
    };
    for ((i, (_, quote)), label) in asks.iter().zip(labels) {
        if let Some((l, why)) = label {
            let c = &mut claims[*i];
            let l = merge(c.support, l);
            // Nor does it make a claim entailed that gives a figure its
            // quote does not ("… and each was paid £500 a year").
            let text = crate::answer::without_markers(&c.text);
            if l == Support::Entails
                && let Some(n) = crate::support::figure_missing(&text, quote)
            {
                c.support = Some(Support::Partial);
                c.support_reason = Some(format!(
                    "the model judged it entailed, but the quote gives no figure {n}"
                ));
                continue;
            }
            c.support = Some(l);
            c.support_reason = Some(format!("the model judged it {l:?}: {why}").to_lowercase());
        }
    }
    usage
}

/// The model's label over the deterministic one: it refines it, but it
/// does not make a claim that shares no content word with its quote
/// (`irrelevant`) entailed — a weak model, or an instruction planted in a
/// source, would — at most `partial`.
fn merge(deterministic: Option<Support>, model: Support) -> Support {
    match (deterministic, model) {
        (Some(Support::Irrelevant), Support::Entails) => Support::Partial,
        (_, l) => l,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_model_never_makes_an_irrelevant_claim_entailed() {
        assert_eq!(
            merge(Some(Support::Irrelevant), Support::Entails),
            Support::Partial
        );
        assert_eq!(
            merge(Some(Support::Irrelevant), Support::Irrelevant),
            Support::Irrelevant
        );
        assert_eq!(
            merge(Some(Support::Partial), Support::Entails),
            Support::Entails
        );
        assert_eq!(
            merge(Some(Support::Entails), Support::Irrelevant),
            Support::Irrelevant
        );
    }

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
