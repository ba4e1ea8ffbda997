"""The schema version of a fabricsim database, and bringing an older file up
to this one, from the only copies: db/schema.sql (the version it writes)
and db/migrations.sql (a step per older version, as fabricsim runs them,
db/schema.cpp). Used by fabricsim-sweep and fabric-report."""
import os
import re
import sqlite3

from fabricpy import user_schema_objects

DB = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "db")


def _read(name):
    with open(os.path.join(DB, name)) as f:
        return f.read()


def current():
    """The version db/schema.sql writes."""
    return re.search(r"\('schema_version', '(\d+)'\)", _read("schema.sql")).group(1)


def steps():
    """[(version a step starts from, its SQL)] in order."""
    parts = re.split(r"^-- from (\d+)\n", _read("migrations.sql"), flags=re.M)
    return list(zip(parts[1::2], parts[2::2]))


def older():
    """The versions a file may have and be brought up from."""
    return [version for version, _ in steps()]


def migration_from(version):
    """The SQL that brings a file of `version` up to current(), or None."""
    versions = older()
    if version not in versions:
        return None
    return "".join(sql for _, sql in steps()[versions.index(version):])


def statements(sql):
    """The statements of `sql` one by one (executescript would commit the
    transaction), split where SQLite says a statement is complete: a ';' in
    a comment or a string does not end one."""
    pending = ""
    for line in sql.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            statement = "\n".join(l for l in pending.splitlines() if not l.lstrip().startswith("--")).strip()
            if statement.rstrip(";").strip():
                yield statement
            pending = ""


def migrate(conn):
    """Brings the file behind `conn` (autocommit) up to current() in one
    transaction, if it is older, with the schema of db/schema.sql; the
    user's own views, indexes and triggers are kept (user_schema_objects:
    UpgradeRefused, the file unchanged, when one cannot be). Returns the
    version it had."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        version = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
        sql = migration_from(version) if version != current() else None
        if sql:
            kept = user_schema_objects.set_aside(conn, _read("schema.sql") + _read("migrations.sql"), sql)
            for statement in statements(sql + _read("schema.sql")):
                conn.execute(statement)
            path = conn.execute("PRAGMA database_list").fetchone()[2]
            user_schema_objects.restore(conn, path, kept, f"from schema version {version} to {current()}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return version
