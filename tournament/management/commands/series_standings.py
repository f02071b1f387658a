from tournament.management.series_file import SeriesFile, SeriesFileCommand
from tournament.series import export as series_export
from tournament.series.services import series_standings


class Command(SeriesFileCommand):
    help = (
        "Print a series' standings: only what its tournaments show publicly counts. "
        "See docs/series.md."
    )
    file = SeriesFile(
        series_standings,
        series_export.standings_json,
        series_export.standings_csv,
        series_export.standings_text,
    )
