"""The database refuses a seat whose round is not its table's round.

``Seat.round`` repeats ``table.round`` so that a unique constraint can refuse a player
seated twice in one round; these triggers keep the copy true, so that the constraint
holds whatever code writes the seat. (Django has no composite foreign keys, which would
say the same declaratively.) Both raise an integrity error, as a constraint would.
"""

from django.db import migrations

SQLITE = [
    f"""
    CREATE TRIGGER seat_round_matches_table_{when}
    BEFORE {event} ON tournament_seat
    FOR EACH ROW
    WHEN NEW.round_id IS NOT (SELECT round_id FROM tournament_table WHERE id = NEW.table_id)
    BEGIN
        SELECT RAISE(ABORT, 'seat_round_matches_table: a seat''s round must be its table''s round');
    END;
    """
    for when, event in (("insert", "INSERT"), ("update", "UPDATE OF table_id, round_id"))
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS seat_round_matches_table_insert;",
    "DROP TRIGGER IF EXISTS seat_round_matches_table_update;",
]

POSTGRESQL = [
    """
    CREATE FUNCTION seat_round_matches_table() RETURNS trigger AS $$
    BEGIN
        IF NEW.round_id IS DISTINCT FROM
                (SELECT round_id FROM tournament_table WHERE id = NEW.table_id) THEN
            RAISE EXCEPTION 'seat_round_matches_table: a seat''s round must be its table''s round'
                USING ERRCODE = 'check_violation';
        END IF;
        RETURN NEW;
    END;
    $$ LANGUAGE plpgsql;
    """,
    """
    CREATE TRIGGER seat_round_matches_table
    BEFORE INSERT OR UPDATE OF table_id, round_id ON tournament_seat
    FOR EACH ROW EXECUTE FUNCTION seat_round_matches_table();
    """,
]
POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS seat_round_matches_table ON tournament_seat;",
    "DROP FUNCTION IF EXISTS seat_round_matches_table();",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        for statement in statements_by_vendor.get(schema_editor.connection.vendor, []):
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("tournament", "0004_public_changed")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE, "postgresql": POSTGRESQL}),
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRESQL_DROP}),
        )
    ]
