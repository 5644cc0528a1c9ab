// Every namespace this database holds claims of, with its claim counts (an operator's listing:
// names and counts only, no content).
// Params: none   Returns: namespace, claims, active
MATCH (c:Claim)
RETURN c.namespace AS namespace, count(c) AS claims,
       count(CASE WHEN c.status = 'active' THEN 1 END) AS active
ORDER BY namespace
