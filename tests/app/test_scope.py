"""The group scope closes its gaps: every table scoped or declared the server's, hands kept to their game's group,
and no group at all for work that did not say which."""

from sqlalchemy import select

from scorekeeper.service import games, groups
from scorekeeper.store import models, scope
from scorekeeper.store.db import db

HAND = {"hearts": [4, 0, 9, 0], "queen": 1}


def test_every_table_is_scoped_or_declared_the_servers():
    """A new table must say which: kept to the group in scope (by its group_id or its game's), or the server's."""
    declared = {table.__table__.name for table in (*scope.GROUPED, *scope.THROUGH_GAME, *scope.SERVER_WIDE)}
    assert set(db.Model.metadata.tables) - {"alembic_version"} == declared


def two_groups_with_a_hand_each(app) -> tuple[int, int]:
    with app.app_context():
        scope.see_everything()
        first, second = groups.start_group("First").id, groups.start_group("Second").id
        db.session.commit()
    for group in (first, second):
        with app.app_context():
            scope.limit_to(group)
            game = games.create_game(["Ann", "Ben", "Cat", "Dan"])
            games.record_hand(game.id, HAND)
    return first, second


def test_a_groups_queries_see_its_own_hands_alone(app):
    first, second = two_groups_with_a_hand_each(app)
    with app.app_context():
        for group in (first, second):
            scope.limit_to(group)
            hands = db.session.scalars(select(models.Hand)).all()
            owners = {db.session.get(models.Game, hand.game_id).group_id for hand in hands}
            assert len(hands) == 1 and owners == {group}
        scope.limit_to(None)
        assert db.session.scalars(select(models.Hand)).all() == []


def test_work_outside_a_request_sees_no_group_until_it_asks_for_every_one(app):
    two_groups_with_a_hand_each(app)
    with app.app_context():  # a script, a thread, a forgotten scope: nothing
        assert db.session.scalars(select(models.Game)).all() == []
        assert db.session.scalars(select(models.Hand)).all() == []
        scope.see_everything()  # a host's command, by name
        assert len(db.session.scalars(select(models.Game)).all()) == 2
        assert len(db.session.scalars(select(models.Hand)).all()) == 2
