-- Turns a file of schema version 6 into one as fabricsim wrote it at
-- version 5, for the tests that bring older files up (db/migrations.sql):
-- entities named only (no from_*, to_*, direction or vl columns) and no
-- views on their ends.
DROP VIEW v_link_totals_per_direction;
DROP VIEW v_link_totals_per_leaf;
DROP VIEW v_link_totals_per_spine;
DROP VIEW v_link_totals;
ALTER TABLE entities DROP COLUMN vl;
ALTER TABLE entities DROP COLUMN direction;
ALTER TABLE entities DROP COLUMN to_id;
ALTER TABLE entities DROP COLUMN to_kind;
ALTER TABLE entities DROP COLUMN from_id;
ALTER TABLE entities DROP COLUMN from_kind;
UPDATE meta SET value = '5' WHERE key = 'schema_version';
