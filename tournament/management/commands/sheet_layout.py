"""``manage.py sheet_layout``: where every box of a table's printed score sheet lies on
the paper, for checking a reading of it against the printed page."""

import json

from django.core.management.base import BaseCommand, CommandError, CommandParser

from scoring.errors import UserError
from tournament.models import Round, Tournament
from tournament.printing.layout import PAPERS, page_offset
from tournament.printing.pages import readable_layout, round_sheets


class Command(BaseCommand):
    help = (
        "Print the boxes of a table's score sheet as JSON: each box's deal, field, seat and "
        "digit, and its rectangle in millimetres from the printed page's top left."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug", help="the tournament's slug")
        parser.add_argument("round", type=int)
        parser.add_argument("table", type=int)
        parser.add_argument("--paper", choices=sorted(PAPERS), default="a4")
        parser.add_argument("--format", choices=["json"], default="json")

    def handle(
        self, *args: object, slug: str, round: int, table: int, paper: str, **options: object
    ) -> None:
        round_ = Round.objects.filter(tournament__slug=slug, number=round).first()
        if round_ is None:
            if not Tournament.objects.filter(slug=slug).exists():
                raise CommandError(f"No tournament {slug!r}.")
            raise CommandError(f"{slug} has no round {round}.")
        sheet = next((sheet for sheet in round_sheets(round_) if sheet.table == table), None)
        if sheet is None:
            raise CommandError(f"Round {round} of {slug} has no table {table}.")
        try:
            layout = readable_layout(round_, sheet)
        except UserError as error:
            raise CommandError(str(error)) from None
        left, top = page_offset(paper)
        width, height = PAPERS[paper]
        boxes = []
        for box in layout.boxes:
            x, y, box_width, box_height = box.rect
            entry: dict[str, object] = {"deal": box.deal, "field": box.field, "seat": box.seat}
            if box.digit is not None:
                entry["digit"] = box.digit
            entry["rect"] = [round_mm(left + x), round_mm(top + y), box_width, box_height]
            boxes.append(entry)
        page = {"index": sheet.first_page, "width_mm": width, "height_mm": height}
        self.stdout.write(json.dumps({"page": page, "boxes": boxes}))


def round_mm(value: float) -> float:
    return round(value, 2)
