// Erase, first transaction: its Revision, labelled Erasing and naming what it covers, so that every
// read leaves that out (read/hidden) and every write to it is refused (write/apply, write/lock)
// from now until the erase has finished, whatever happens to the erase in between. A revision
// of that id that exists already is left as it is (the caller resumes or replays it).
// Params: $namespace, $id, $at (ISO-8601), $actor, $reason, $result (the stored result until it
//         finishes), $scope ('namespace' | 'subject' | 'claims'), $key (the subject's key, or
//         null), $mention, $legacy (its patterns: write/erase_targets), $ids (or null)
// Returns: created (whether this call wrote it)
MERGE (r:Revision {namespace: $namespace, id: $id})
  ON CREATE SET r:Erasing, r.op = 'erase', r.decision = 'erase', r.at = datetime($at),
                r.actor = $actor, r.reason = $reason, r.result = $result, r.slot_ids = [],
                r.erasing_scope = $scope, r.erasing_key = $key, r.erasing_mention = $mention,
                r.erasing_legacy = $legacy, r.erasing_ids = $ids, r.created_now = true
WITH r, coalesce(r.created_now, false) AS created
REMOVE r.created_now
RETURN created
