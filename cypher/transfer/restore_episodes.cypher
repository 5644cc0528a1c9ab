// Restore, a batch of :Episode nodes from a snapshot, every property as exported.
// Params: $rows (list of property maps)   Returns: created (count)
UNWIND $rows AS row
CREATE (n:Episode)
SET n = row
RETURN count(n) AS created
