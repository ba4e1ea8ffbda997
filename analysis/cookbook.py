"""Runs the SQL cookbook (db/queries/*.sql) from Python, so the report's
small tables are exactly what a user gets from the sqlite3 shell."""
import os

QUERIES = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "db", "queries")


def run_query(conn, name, **params):
    """Rows of db/queries/<name>.sql as (column names, list of tuples).
    Parameters not given are NULL, as with the shell's .parameter."""
    with open(os.path.join(QUERIES, name + ".sql")) as f:
        sql = f.read()
    bound = {p: None for p in ("run", "window_ps", "from_ps", "to_ps", "dst_port", "link_gbps")}
    bound.update(params)
    cursor = conn.execute(sql, bound)
    return [d[0] for d in cursor.description], cursor.fetchall()
