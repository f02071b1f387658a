from tournament.management.series_file import SeriesFile, SeriesFileCommand
from tournament.series import export as series_export
from tournament.series.services import series_ratings


class Command(SeriesFileCommand):
    help = (
        "Print the ratings of a series' people (openskill, Plackett–Luce): only what its "
        "tournaments show publicly counts. See docs/series.md."
    )
    file = SeriesFile(
        series_ratings,
        series_export.ratings_json,
        series_export.ratings_csv,
        series_export.ratings_text,
    )
