"""One player is one player everywhere (issue 32): ``/link`` and ``/unlink`` carry what is
keyed by the player (the seek in the queue, blocks both ways, the live-game cap), a waiting
seek keeps its player's cap, and turning open play off withdraws the chat's seeks. Through
the service, on both stores."""

from __future__ import annotations

import asyncio
import dataclasses
import random

from core.ports import PlatformStyle
from core.replies import Actor
from core.sessions import GameService, ServiceSettings
from core.store import seeks, stats
from tests.backends import AnyStore
from tests.core.store.test_limit_races import stores
from tests.core.test_sessions import Clock, error_key, keys, store
from tests.core.test_sessions_seek import Chats, open_service

__all__ = ["store", "stores"]  # the fixtures

# One person with an account on each platform, each in a direct chat with the bot.
ALICE = Actor("disc", "dm-alice", "alice", "Alice", direct=True)
ALICE_MX = Actor("mx", "!dm-alice:hs", "@alice:hs", "Alice", direct=True)
CAROL = Actor("disc", "dm-carol", "carol", "Carol", direct=True)
CAROL_MX = Actor("mx", "!dm-carol:hs", "@carol:hs", "Carol", direct=True)
DAN = Actor("disc", "dm-dan", "dan", "Dan", direct=True)


def linking_service(store: AnyStore, clock: Clock | None = None) -> tuple[GameService, Chats]:
    svc, chats = open_service(store, clock)
    svc.register_platform(PlatformStyle("disc", private_replies=True, publish=chats.publish))
    svc.register_platform(PlatformStyle("mx", prefix="!", publish=chats.publish))
    return svc, chats


async def link(svc: GameService, giver: Actor, taker: Actor) -> None:
    """``taker`` types the code ``giver`` was given: ``taker`` joins ``giver``'s identity."""
    given = await svc.handle_text(giver, "/link")
    assert given[0].text is not None and given[0].text.key == "ratings.link_code", given
    code = given[0].text.params["code"]
    assert keys(await svc.handle_text(taker, f"/link {code}")) == ["ratings.linked"]


async def test_a_seek_made_before_linking_is_the_persons_after_it(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    assert keys(await svc.handle_text(ALICE_MX, "!seek tres")) == ["seek.queued"]
    await link(svc, ALICE, ALICE_MX)
    # Her Discord account is the same person: seeking again is seeking twice, never a game
    # with herself, and cancelling from either account finds the seek.
    assert error_key(await svc.handle_text(ALICE, "/seek tres")) == "error.seek_twice"
    assert keys(await svc.handle_text(ALICE, "/seek cancel")) == ["seek.cancelled"]
    assert error_key(await svc.handle_text(ALICE_MX, "!seek cancel")) == "error.seek_none"


async def test_linking_two_waiting_seeks_keeps_the_older(store: AnyStore) -> None:
    clock = Clock()
    svc, _ = linking_service(store, clock)
    assert keys(await svc.handle_text(ALICE, "/seek connect4 casual")) == ["seek.queued"]
    clock.advance(1)
    assert keys(await svc.handle_text(ALICE_MX, "!seek tres rated")) == ["seek.queued"]
    await link(svc, ALICE, ALICE_MX)
    assert len(await store.run(seeks.waiting_seeks(clock.now))) == 1
    assert keys(await svc.handle_text(ALICE_MX, "!seek cancel")) == ["seek.cancelled"]
    assert await store.run(seeks.waiting_seeks(clock.now)) == []


async def test_a_seek_goes_with_the_account_that_unlinks(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    await link(svc, ALICE, ALICE_MX)
    assert keys(await svc.handle_text(ALICE_MX, "!seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(ALICE_MX, "!unlink")) == ["ratings.unlinked"]
    # Two players again: the Matrix account's seek is its own, the Discord one meets it.
    assert error_key(await svc.handle_text(ALICE, "/seek cancel")) == "error.seek_none"
    replies = await svc.handle_text(ALICE, "/seek tres")
    assert keys(replies) == ["seek.paired"]


async def blocked_pair_meets(svc: GameService, blocker: Actor, blocked: Actor) -> bool:
    """Whether ``blocked``'s seek meets ``blocker``'s (both taken out again)."""
    assert keys(await svc.handle_text(blocker, f"{prefix(blocker)}seek tres")) == ["seek.queued"]
    met = keys(await svc.handle_text(blocked, f"{prefix(blocked)}seek tres")) == ["seek.paired"]
    if met:
        for who in (blocker, blocked):
            await svc.handle_text(who, f"{prefix(who)}final")
    else:
        for who in (blocker, blocked):
            assert keys(await svc.handle_text(who, f"{prefix(who)}seek cancel")) == [
                "seek.cancelled"
            ]
    return met


def prefix(actor: Actor) -> str:
    return "!" if actor.platform == "mx" else "/"


async def test_a_blocked_player_who_links_stays_blocked(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    # Carol's Discord account joins her Matrix identity: the block follows her.
    await link(svc, CAROL_MX, CAROL)
    assert not await blocked_pair_meets(svc, ALICE, CAROL)
    assert not await blocked_pair_meets(svc, ALICE, CAROL_MX)


async def test_a_blocked_player_who_unlinks_stays_blocked_on_both_accounts(
    store: AnyStore,
) -> None:
    svc, _ = linking_service(store)
    await link(svc, CAROL, CAROL_MX)
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    assert keys(await svc.handle_text(CAROL_MX, "!unlink")) == ["ratings.unlinked"]
    assert not await blocked_pair_meets(svc, ALICE, CAROL)
    assert not await blocked_pair_meets(svc, ALICE, CAROL_MX)


async def test_a_blocker_keeps_her_blocks_through_link_and_unlink(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    await link(svc, ALICE_MX, ALICE)
    assert not await blocked_pair_meets(svc, ALICE, CAROL)
    assert not await blocked_pair_meets(svc, ALICE_MX, CAROL)
    assert keys(await svc.handle_text(ALICE, "/unlink")) == ["ratings.unlinked"]
    assert not await blocked_pair_meets(svc, ALICE, CAROL)
    assert not await blocked_pair_meets(svc, ALICE_MX, CAROL)
    # Dan was never blocked: he meets her.
    assert await blocked_pair_meets(svc, ALICE, DAN)


async def test_an_unblock_after_link_carried_the_block_holds_through_unlink(
    store: AnyStore,
) -> None:
    clock = Clock()
    svc, _ = linking_service(store, clock)
    assert keys(await svc.handle_text(ALICE, "/block @carol")) == ["block.done"]
    # Carol's Discord account joins her Matrix identity: the block is the identity's now.
    await link(svc, CAROL_MX, CAROL)
    assert keys(await svc.handle_text(ALICE, "/unblock @carol")) == ["unblock.done"]
    assert await blocked_pair_meets(svc, ALICE, CAROL)
    assert await blocked_pair_meets(svc, ALICE, CAROL_MX)
    # Taken out again, neither of her accounts finds the block back.
    assert keys(await svc.handle_text(CAROL, "/unlink")) == ["ratings.unlinked"]
    assert await blocked_pair_meets(svc, ALICE, CAROL)
    assert await blocked_pair_meets(svc, ALICE, CAROL_MX)
    clock.advance(60)  # a minute later: the rate limits are not what this is about
    assert keys(await svc.handle_text(ALICE, "/unblock @carol")) == ["unblock.not_blocked"]


async def test_a_waiting_seek_keeps_its_players_cap(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    admin = dataclasses.replace(CAROL, is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings max_games_per_user 1")) is None
    assert keys(await svc.handle_text(CAROL, "/seek tres")) == ["seek.queued"]
    # While she waits, Carol starts a game with the bot in another chat: she is at her cap.
    elsewhere = dataclasses.replace(CAROL, chat_id="dm-carol-2")
    assert error_key(await svc.handle_text(elsewhere, "/tres easy")) is None
    assert keys(await svc.handle_text(ALICE, "/seek tres")) == ["seek.queued"]
    assert await svc.match_waiting() == 0
    assert (await store.run(stats.live_counts("disc", "dm-carol", "carol"))).user == 1
    # Her game over, she is under her cap again and the waiting seeks meet.
    assert error_key(await svc.handle_text(elsewhere, "/final")) is None
    assert await svc.match_waiting() == 1


async def test_a_cooldown_follows_the_person_through_link_and_unlink(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    for account in (ALICE, ALICE_MX):
        admin = dataclasses.replace(account, is_admin=True)
        line = f"{prefix(account)}settings cooldown 3600"
        assert error_key(await svc.handle_text(admin, line)) is None
    assert error_key(await svc.handle_text(ALICE, "/tres easy")) is None
    assert error_key(await svc.handle_text(ALICE, "/final")) is None
    # Her Discord account joins her Matrix identity: the Matrix account waits out the hour too.
    await link(svc, ALICE_MX, ALICE)
    assert error_key(await svc.handle_text(ALICE_MX, "!tres easy")) == "limits.cooldown"
    assert keys(await svc.handle_text(ALICE, "/unlink")) == ["ratings.unlinked"]
    assert error_key(await svc.handle_text(ALICE, "/tres easy")) == "limits.cooldown"
    assert error_key(await svc.handle_text(ALICE_MX, "!tres easy")) == "limits.cooldown"


async def test_a_personal_theme_follows_the_person(store: AnyStore) -> None:
    svc, _ = linking_service(store)
    assert error_key(await svc.handle_text(ALICE, "/theme discs")) is None
    await link(svc, ALICE, ALICE_MX)
    shown = await svc.handle_text(ALICE_MX, "!theme")
    assert shown[0].text is not None and shown[0].text.params.get("theme") == "discs", shown
    # The account that asked for the code keeps its own where both had one.
    assert error_key(await svc.handle_text(CAROL_MX, "!theme contrast")) is None
    assert error_key(await svc.handle_text(CAROL, "/theme discs")) is None
    await link(svc, CAROL_MX, CAROL)
    shown = await svc.handle_text(CAROL, "/theme")
    assert shown[0].text is not None and shown[0].text.params.get("theme") == "contrast", shown


async def test_turning_open_play_off_withdraws_the_chats_seeks_with_a_notice(
    store: AnyStore,
) -> None:
    svc, chats = linking_service(store)
    room = dataclasses.replace(CAROL, chat_id="lobby", direct=False, server_id="guild")
    admin = dataclasses.replace(room, user_id="root", is_admin=True)
    assert error_key(await svc.handle_text(admin, "/settings open_play on")) is None
    assert keys(await svc.handle_text(room, "/seek tres")) == ["seek.queued"]
    assert keys(await svc.handle_text(ALICE, "/seek connect4")) == ["seek.queued"]
    assert error_key(await svc.handle_text(admin, "/settings open_play off")) is None
    await svc.open_games_idle()
    [notice] = chats.shown[(room.platform, room.chat_id)]
    assert notice.text is not None and notice.text.key == "seek.withdrawn"
    assert error_key(await svc.handle_text(room, "/seek cancel")) == "error.seek_none"
    # Another chat's seek waits on.
    assert keys(await svc.handle_text(ALICE, "/seek cancel")) == ["seek.cancelled"]


# --- races ----------------------------------------------------------------------------------------


def capped(store: AnyStore, clock: Clock) -> GameService:
    svc = GameService(
        store,
        settings=ServiceSettings(
            ai_workers=0,
            ai_budget=0.02,
            chat_defaults={"max_games_per_user": 1},
            limits=False,  # no rate limit: the burst meets the cap alone
        ),
        clock=clock,
        rng=random.Random(3),
    )
    svc.register_platform(PlatformStyle("disc", private_replies=True))
    svc.register_platform(PlatformStyle("mx", prefix="!"))
    return svc


async def test_a_person_at_her_cap_gets_one_game_from_a_burst_on_both_accounts(
    stores: list[AnyStore],
) -> None:
    clock = Clock()
    services = [capped(store, clock) for store in stores]
    await link(services[0], CAROL, CAROL_MX)
    assert keys(await services[0].handle_text(CAROL, "/seek tres casual")) == ["seek.queued"]
    # At once, from three processes: partners seek (the first meets her waiting seek), and
    # she starts games with the bot from chats of both her accounts. One game in all.
    partners = [Actor("disc", f"dm-p{n}", f"p{n}", f"P{n}", direct=True) for n in range(8)]
    requests = [(partner, "/seek tres casual") for partner in partners]
    for n in range(16):
        account = CAROL if n % 2 else CAROL_MX
        chat = dataclasses.replace(account, chat_id=f"{account.chat_id}-{n}")
        requests.append((chat, f"{prefix(account)}tres easy"))
    await asyncio.gather(
        *(services[n % 3].handle_text(who, text) for n, (who, text) in enumerate(requests))
    )
    await services[0].match_waiting()
    held = [
        (await stores[0].run(stats.live_counts(a.platform, a.chat_id, a.user_id))).user
        for a in (CAROL, CAROL_MX)
    ]
    assert sum(held) == 1, held
