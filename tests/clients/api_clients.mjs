// The ways an application reads an Anthropic Messages or an OpenAI Responses stream, each reduced
// to one shape: { text, reasoning, calls: [{id, name, input}], finish, error }. `input` is what
// the client made of the call's arguments: an object (Anthropic, and the AI SDK), or the raw text
// (Responses' function_call.arguments, custom_tool_call.input).
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { streamText, dynamicTool, jsonSchema } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';

const timeoutMs = 30000;
const empty = () => ({ text: '', reasoning: '', calls: [], finish: null, error: null });

function readMessage(message, out) {
  for (const block of message.content) {
    if (block.type === 'text') out.text += block.text;
    else if (block.type === 'thinking') out.reasoning += block.thinking;
    else if (block.type === 'tool_use') out.calls.push({ id: block.id, name: block.name, input: block.input });
  }
  out.finish = message.stop_reason;
  out.message = message;
}

/// @anthropic-ai/sdk: messages.stream(...).finalMessage(), or messages.create(...) when `request`
/// says `stream: false`. `request` adds to (or replaces) the params: tools, messages.
/// `baseURL` ends in /v1, which the SDK adds.
export async function anthropicStream(baseURL, model, { stream = true, ...request } = {}) {
  const out = empty();
  try {
    const client = new Anthropic({ apiKey: 'test', baseURL: baseURL.replace(/\/v1$/, ''), maxRetries: 0, timeout: timeoutMs });
    const params = { model, max_tokens: 1024, messages: [{ role: 'user', content: 'go' }], ...request };
    readMessage(stream ? await client.messages.stream(params).finalMessage() : await client.messages.create(params), out);
  } catch (e) {
    out.error = e;
  }
  return out;
}

/// openai-node: responses.stream(...).finalResponse(), or responses.create(...) when `request`
/// says `stream: false`; `request` adds to the params (tools, input). A failed response is an error.
export async function openaiResponsesStream(baseURL, model, { stream = true, ...request } = {}) {
  const out = empty();
  try {
    const client = new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0, timeout: timeoutMs });
    const params = { model, input: 'go', ...request };
    const response = stream ? await client.responses.stream(params).finalResponse() : await client.responses.create(params);
    for (const item of response.output) {
      if (item.type === 'message') out.text += item.content.map((p) => p.text ?? '').join('');
      else if (item.type === 'reasoning') out.reasoning += (item.content ?? []).map((p) => p.text ?? '').join('');
      else if (item.type === 'function_call') {
        out.calls.push({ id: item.call_id, name: item.name, input: item.arguments, status: item.status,
          ...(item.namespace ? { namespace: item.namespace } : {}) });
      } else if (item.type === 'custom_tool_call') out.calls.push({ id: item.call_id, name: item.name, input: item.input, custom: true });
    }
    out.finish = response.status;
    out.response = response;
    if (response.status === 'failed') out.error = new Error(response.error?.message ?? 'failed');
  } catch (e) {
    out.error = e;
  }
  return out;
}

/// The AI SDK's streamText with the Anthropic provider or the OpenAI Responses provider; tools
/// declared by name without execute, as an application that runs them itself; `schemas` gives a
/// tool's JSON schema (else any object).
export async function aiSdkStream(kind, baseURL, model, toolNames, schemas = {}) {
  const out = empty();
  const languageModel = kind === 'anthropic'
    ? createAnthropic({ baseURL, apiKey: 'test' })(model)
    : createOpenAI({ baseURL, apiKey: 'test' }).responses(model);
  const tools = Object.fromEntries(toolNames.map((name) => [name, dynamicTool({
    description: name,
    inputSchema: jsonSchema(schemas[name] ?? { type: 'object' }),
  })]));
  try {
    const result = streamText({
      model: languageModel,
      prompt: 'go',
      tools: toolNames.length > 0 ? tools : undefined,
      maxOutputTokens: 1024,   // an unknown model name has no default the SDK knows
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
      onError: ({ error }) => { out.error ??= error; },
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') out.text += part.text;
      else if (part.type === 'reasoning-delta') out.reasoning += part.text;
      else if (part.type === 'tool-call') out.calls.push({ id: part.toolCallId, name: part.toolName, input: part.input });
      else if (part.type === 'finish') out.finish = part.finishReason;
      else if (part.type === 'error') out.error ??= part.error;
    }
  } catch (e) {
    out.error ??= e;
  }
  return out;
}
