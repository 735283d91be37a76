import { Hono } from 'hono';
import * as v from 'valibot';
import { rerankWithModel, unusableRanking } from '../../../shared/reranker/rerank.ts';
import { inRetrievalOrder } from '../../../shared/reranker/retrieval-order.ts';
import { externalId, finite, wellFormed } from '../../../shared/schema/common.ts';
import { MAX_CHUNK_TEXT, MAX_QUERY_CHARS, MAX_TRACES_BODY_BYTES } from '../../../shared/thresholds.ts';
import type { AppEnv } from '../../env.ts';
import { jsonBody } from '../../middleware/json-body.ts';
import { requireKey } from '../../middleware/require-key.ts';
import { validBody } from '../../middleware/valid-body.ts';
import { rankingModel } from '../../storage/ranking-model.ts';

// Strict at the top, where a field it does not take (`topK`) would otherwise go unnoticed; a
// chunk's other fields (its title, its rank) are the backend's own and pass.
const RerankRequest = v.strictObject({
  query: v.pipe(v.string(), v.maxLength(MAX_QUERY_CHARS), wellFormed()),
  chunks: v.pipe(
    v.array(
      v.object({
        // The ids and the text as the trace logs them: the model learnt from those.
        chunkId: externalId(),
        sourceDocId: v.optional(externalId()),
        text: v.pipe(v.string(), v.maxLength(MAX_CHUNK_TEXT), wellFormed()),
        score: v.optional(finite()),
      }),
    ),
    v.maxLength(200),
  ),
});

/**
 * POST /v1/rerank (server key): the promoted model's order for one query, for backends that do
 * not run JavaScript. Lexical features only: a Worker has no embedder.
 */
export const rerankRoutes = new Hono<AppEnv>().post(
  '/',
  // The key is never in the body: a request without one is refused before its body is read.
  requireKey('server'),
  jsonBody({ maxBytes: MAX_TRACES_BODY_BYTES, contentTypes: ['application/json'] }),
  validBody(RerankRequest, 'invalid_rerank'),
  async (c) => {
    const { query, chunks } = c.get('input');
    const { model } = await rankingModel(c.env.DB, c.get('auth').projectId);
    const byModel = model ? rerankWithModel(model, query, chunks) : undefined;
    const unusable = byModel && unusableRanking(byModel, model!.version);
    if (unusable) console.warn(unusable.message);
    const usable = unusable ? undefined : byModel;
    const ranked = (usable ?? inRetrievalOrder(chunks)).map((r) => ({ chunkId: r.chunkId, rerankScore: r.rerankScore, retrievalRank: r.retrievalRank }));
    return c.json({ version: usable ? model!.version : null, chunks: ranked });
  },
);
