// The three ways an application reads a Chat Completions stream, each reduced to the same shape:
// { choices: { [index]: { text, reasoning, calls: [{id, name, arguments}], finish } },
//   progress, results, error }.
// `arguments` is the raw text; a missing part is absent rather than guessed.
import OpenAI from 'openai';
import { streamText, dynamicTool, jsonSchema } from 'ai';
import { createOpenAICompatible } from '@ai-sdk/openai-compatible';

const timeoutMs = 30000;

function client(baseURL) {
  return new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0, timeout: timeoutMs });
}

const request = (model) => ({ model, messages: [{ role: 'user', content: 'go' }] });

/// openai-node's helper: chat.completions.stream(...).finalChatCompletion().
export async function openaiStreamHelper(baseURL, model) {
  const out = { choices: {}, progress: 0, results: 0, error: null };
  try {
    const stream = client(baseURL).chat.completions.stream(request(model));
    const completion = await stream.finalChatCompletion();
    for (const c of completion.choices) {
      out.choices[c.index] = {
        text: c.message.content ?? '',
        calls: (c.message.tool_calls ?? []).map((t) => ({ id: t.id, name: t.function.name, arguments: t.function.arguments })),
        finish: c.finish_reason,
      };
    }
  } catch (e) {
    out.error = e;
  }
  return out;
}

/// openai-node's raw stream: create({stream: true}), every chunk accumulated by hand, as most
/// applications do (index-keyed calls, names assigned, arguments concatenated).
export async function openaiCreateStream(baseURL, model) {
  const out = { choices: {}, progress: 0, results: 0, error: null };
  try {
    const stream = await client(baseURL).chat.completions.create({ ...request(model), stream: true });
    for await (const chunk of stream) {
      if (chunk.tool_progress) out.progress++;
      if (chunk.tool_result) out.results++;
      for (const c of chunk.choices) {
        const ch = (out.choices[c.index] ??= { text: '', reasoning: '', calls: [], finish: null });
        ch.text += c.delta?.content ?? '';
        ch.reasoning += c.delta?.reasoning_content ?? '';
        for (const t of c.delta?.tool_calls ?? []) {
          const call = (ch.calls[t.index] ??= { id: '', name: '', arguments: '' });
          if (t.id) call.id = t.id;
          if (t.function?.name) call.name = t.function.name;
          call.arguments += t.function?.arguments ?? '';
        }
        if (c.finish_reason) ch.finish = c.finish_reason;
      }
    }
  } catch (e) {
    out.error = e;
  }
  return out;
}

/// The Vercel AI SDK: streamText with @ai-sdk/openai-compatible; tools declared by name, without
/// execute, as an application that runs them itself. Choice 0 only: the SDK reads choices[0].
export async function aiSdkStreamText(baseURL, model, toolNames) {
  const out = { choices: {}, progress: 0, results: 0, error: null };
  const provider = createOpenAICompatible({ name: 'toolstream', baseURL, apiKey: 'test', includeUsage: true });
  const tools = Object.fromEntries(toolNames.map((name) => [name, dynamicTool({
    description: name,
    inputSchema: jsonSchema({ type: 'object' }),
  })]));
  const ch = { text: '', reasoning: '', calls: [], finish: null };
  try {
    const result = streamText({
      model: provider.chatModel(model),
      prompt: 'go',
      tools: toolNames.length > 0 ? tools : undefined,
      maxRetries: 0,
      abortSignal: AbortSignal.timeout(timeoutMs),
      onError: () => {},
    });
    for await (const part of result.fullStream) {
      if (part.type === 'text-delta') ch.text += part.text;
      else if (part.type === 'reasoning-delta') ch.reasoning += part.text;
      else if (part.type === 'tool-call') {
        ch.calls.push({ id: part.toolCallId, name: part.toolName,
          arguments: typeof part.input === 'string' ? part.input : JSON.stringify(part.input) });
      } else if (part.type === 'finish-step') ch.finish = part.finishReason;
      else if (part.type === 'error') out.error ??= part.error;
    }
  } catch (e) {
    out.error ??= e;
  }
  out.choices[0] = ch;
  return out;
}
