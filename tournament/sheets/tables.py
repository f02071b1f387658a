"""The round desk's table of sheets (django-tables2): each table's players, the stage of
its sheet, who entered it and how many deals it holds, with the links to its pages; and
the count of tables at each stage of the desk."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any

import django_tables2 as tables
from django.urls import reverse
from django.utils import timezone

from tournament.models import Round, Tournament
from tournament.sheets.desk import DeskStatus, ago, table_progress


def desk_records(tournament: Tournament, round_: Round) -> list[dict[str, Any]]:
    """``table_progress`` of the round, each table with the links to its pages and how
    long ago its sheet last changed."""
    now = timezone.now()

    def link(name: str, number: int) -> str:
        return reverse(name, args=[tournament.slug, round_.number, number])

    return [
        {
            **asdict(entry),
            "status_label": entry.status_label,
            "status_note": entry.status_note,
            "ago": ago(entry.updated, now) if entry.updated else "",
            "sheet_url": link("scorer:sheet", entry.number),
            "confirm_url": link("scorer:confirm", entry.number),
            "history_url": link("scorer:history", entry.number),
        }
        for entry in table_progress(tournament, round_)
    ]


class DeskTable(tables.Table):
    number = tables.Column(
        verbose_name="Table",
        linkify=lambda record: record["sheet_url"],
        attrs={"td": {"class": "num"}},
    )
    players = tables.Column(verbose_name="Players", attrs={"td": {"class": "players"}})
    # A link as well as the number: on a phone the status is the easier thing to tap.
    status_label = tables.TemplateColumn(
        verbose_name="Status",
        template_name="sheets/_desk_status.html",
        attrs={"td": {"class": "status"}},
    )
    entered_by = tables.Column(
        verbose_name="Entered by", default="–", attrs={"td": {"class": "entered-by"}}
    )
    deals = tables.TemplateColumn(
        verbose_name="Deals",
        template_code="{{ record.deals }} of {{ record.most }}"
        "{% if record.stopped_early %} (stopped early){% endif %}",
        attrs={"td": {"class": "deals"}},
    )
    links = tables.TemplateColumn(
        verbose_name="",
        template_name="sheets/_desk_links.html",
        attrs={"td": {"class": "links"}},
    )

    class Meta:
        orderable = False
        attrs = {"class": "desk"}
        row_attrs = {
            "class": lambda record: f"status-{record['status']} desk-{record['desk_status']}",
            "data-table": lambda record: record["number"],
        }


def progress(records: list[dict[str, Any]]) -> list[tuple[str, int]]:
    """How many tables are at each desk status; corrections, the exception, only when
    there are some."""
    counts = [
        (status, sum(1 for r in records if r["desk_status"] == status)) for status in DeskStatus
    ]
    return [
        (status.label, count)
        for status, count in counts
        if count or status != DeskStatus.CORRECTION
    ]
