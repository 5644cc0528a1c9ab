// What the erases running now hide (docs/engine.md, "Erase"). An erase writes its Revision first,
// labelled Erasing and naming what it covers, and then erases batch by batch: from its first
// batch to its last, every read leaves out what it covers. Each read statement carries this
// (//@include read/hidden) and keeps a claim c only when
//   NOT (c.namespace IN hidden.whole
//        OR [c.namespace, coalesce(c.subject_key, '')] IN hidden.keys
//        OR (c.namespace IN hidden.text AND coalesce(c.subject_key, 'text:') STARTS WITH 'text:')
//        OR c.id IN hidden.ids)
// A subject's erase hides its facts and the namespace's text-only claims of their own too (which
// of these name the subject is known only as its batches read them), and the claims erased
// already (their key gone, the fact they were in is not known here). No erase running (nearly
// always): hidden's lists are empty, a scan of a label no node has.
// Params: none   Returns: hidden ({whole: namespaces, keys: [namespace, subject_key] pairs,
// text: namespaces, ids: claim ids}), one row
CALL () {
  OPTIONAL MATCH (x:Erasing)
  WITH collect(x) AS running
  RETURN {whole: [x IN running WHERE x.erasing_scope = 'namespace' | x.namespace],
          keys: [x IN running WHERE x.erasing_scope = 'subject' | [x.namespace, x.erasing_key]],
          text: [x IN running WHERE x.erasing_scope = 'subject' | x.namespace],
          ids: reduce(ids = [], x IN running | ids + coalesce(x.erasing_ids, []))} AS hidden
}
RETURN hidden
