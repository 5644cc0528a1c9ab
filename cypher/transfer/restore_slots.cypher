// Restore, a batch of :Slot nodes from a snapshot, every property as exported.
// Params: $rows (list of property maps)   Returns: created (count)
UNWIND $rows AS row
CREATE (n:Slot)
SET n = row
RETURN count(n) AS created
