"""A user's own views, indexes and triggers in a results file (entries of
sqlite_schema that fabricsim's schema does not name, db/schema.sql and
db/migrations.sql) kept across a schema upgrade that rebuilds tables: set
aside before the upgrade's steps and created again after them and the
schema, in the same transaction; as fabricsim does (db/user_schema_objects.cpp).

Set aside: every view and trigger of the user's (SQLite checks each one
whenever a table is renamed, whatever it reads, so one on a rebuilt table
stops the upgrade) and the indexes of the tables the upgrade rebuilds
(dropped with them)."""
import re
import sqlite3

_CREATE = re.compile(r"CREATE\s+(?:UNIQUE\s+)?(?:TABLE|VIEW|INDEX|TRIGGER)\s+(?:IF\s+NOT\s+EXISTS\s+)?(\w+)", re.I)
_DROP_TABLE = re.compile(r"DROP\s+TABLE\s+(?:IF\s+EXISTS\s+)?(\w+)", re.I)
_CHECK_PREFIX = re.compile(r"^error in \w+ \S+: ")


class UpgradeRefused(ValueError):
    """An upgrade that would lose one of the user's objects: the message
    names each and says how to proceed; the file is left as it was."""


def tables_rebuilt_by(upgrade_sql):
    """The tables the upgrade's steps drop (and build again)."""
    tables = []
    for name in _DROP_TABLE.findall(upgrade_sql):
        if name.lower() not in tables:
            tables.append(name.lower())
    return tables


def _quoted(name):
    return '"' + name.replace('"', '""') + '"'


def set_aside(conn, schema_sql, upgrade_sql):
    """Drops the user's objects the upgrade `upgrade_sql` would stop on or
    lose and returns them [(type, name, sql)] in the order they were made.
    `schema_sql`: fabricsim's schema and steps, which name its own objects."""
    ours = {name.lower() for name in _CREATE.findall(schema_sql)}
    rebuilt = tables_rebuilt_by(upgrade_sql)
    objects = [(kind, name, sql) for kind, name, table, sql in conn.execute(
        "SELECT type, name, tbl_name, sql FROM sqlite_schema WHERE type IN ('view', 'index', 'trigger') "
        "AND sql IS NOT NULL ORDER BY rowid")
        if name.lower() not in ours and (kind != "index" or table.lower() in rebuilt)]
    for kind, name, _ in objects:
        conn.execute(f"DROP {kind.upper()} IF EXISTS {_quoted(name)}")
    return objects


def _broken_view_or_trigger(conn):
    """SQLite checks every view and trigger when a table is renamed: renaming
    a scratch table names the first that reads what does not exist."""
    try:
        conn.execute("CREATE TABLE fabricsim_schema_check(x)")
        conn.execute("ALTER TABLE fabricsim_schema_check RENAME TO fabricsim_schema_checked")
        return None
    except sqlite3.Error as e:
        return _CHECK_PREFIX.sub("", str(e))
    finally:
        conn.execute("DROP TABLE IF EXISTS fabricsim_schema_check")
        conn.execute("DROP TABLE IF EXISTS fabricsim_schema_checked")


def _create(conn, kind, name, sql):
    """Creates the object; why it cannot be, or None."""
    try:
        conn.execute(sql)
    except sqlite3.Error as e:
        return str(e)
    problem = None if kind == "index" else _broken_view_or_trigger(conn)
    if problem:
        conn.execute(f"DROP {kind.upper()} {_quoted(name)}")
    return problem


def restore(conn, path, objects, upgrade):
    """Creates `objects` again after the upgrade and the schema; raises
    UpgradeRefused naming each that cannot be (the caller rolls back).
    `upgrade`: 'from schema version 4 to 5'."""
    pending = [(obj, None) for obj in objects]
    progress = True
    while progress and pending:  # in rounds: one that reads another of the user's comes after it
        left = [(obj, _create(conn, *obj)) for obj, _ in pending]
        pending = [(obj, why) for obj, why in left if why]
        progress = len(pending) < len(left)
    if pending:
        which = "; ".join(f"{kind} '{name}' ({why})" for (kind, name, _), why in pending)
        drops = " ".join(f"DROP {kind.upper()} {_quoted(name)};" for (kind, name, _), _why in pending)
        reads, them = ("it reads", "it") if len(pending) == 1 else ("they read", "them")
        raise UpgradeRefused(f"database '{path}': upgrading it {upgrade} cannot keep your {which}: {reads} what "
                             f"the upgrade changes; the file is unchanged: drop {them} ({drops}) and create {them} "
                             "again on the new tables after the upgrade")
