from tournament.management.series_file import SeriesFile, SeriesFileCommand
from tournament.services import series_export
from tournament.services.series import series_ratings


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
