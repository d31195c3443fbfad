import { readFileSync } from 'node:fs';
import { Tokenizer } from '@huggingface/tokenizers';

export interface TokenizedText {
  ids: number[];
  typeIds: number[];
}

export interface TransformerTokenizer {
  /** Token ids with the model's special tokens, at most `maxTokens` of them. */
  encode(text: string): TokenizedText;
}

/**
 * A Hugging Face `tokenizer.json` (WordPiece, BPE, Unigram: whatever the file describes), read by
 * @huggingface/tokenizers. That library ignores the file's truncation settings, so texts longer than
 * `maxTokens` are cut here, keeping the closing special token ([SEP], </s>) the model was trained with.
 */
export function loadTransformerTokenizer(tokenizerPath: string, configPath: string | null, maxTokens: number): TransformerTokenizer {
  const readJson = (path: string) => JSON.parse(readFileSync(path, 'utf8')) as object;
  const tokenizer = new Tokenizer(readJson(tokenizerPath), configPath ? readJson(configPath) : {});
  return {
    encode(text) {
      const encoding = tokenizer.encode(text, { return_token_type_ids: true });
      const ids = encoding.ids;
      const typeIds = encoding.token_type_ids ?? ids.map(() => 0);
      if (ids.length <= maxTokens) return { ids, typeIds };
      return {
        ids: [...ids.slice(0, maxTokens - 1), ids[ids.length - 1]],
        typeIds: [...typeIds.slice(0, maxTokens - 1), typeIds[typeIds.length - 1]],
      };
    },
  };
}
