"""Rows that remember the values they were loaded with, so that a full save can tell
which fields it changed (``shared.public_changes.changed_fields``): a check-in saved
with the whole row changes no page.

A model may name fields a full save never writes (``kept_by_database``): counters and
stamps moved in the database by other writers (a tournament's page generation and
standings version), which a form's save of the whole row must not set back.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from django.db import models


class Tracked(models.Model):
    kept_by_database: ClassVar[tuple[str, ...]] = ()

    class Meta:
        abstract = True

    def save(self, *args: Any, **kwargs: Any) -> None:
        whole = kwargs.get("update_fields") is None and not self._state.adding
        if whole and self.kept_by_database:
            kwargs["update_fields"] = [
                field.name
                for field in self._meta.concrete_fields
                if not field.primary_key and field.name not in self.kept_by_database
            ]
        # The receivers judge a whole save by what it changed, not by the fields it named.
        self._whole_save = whole
        try:
            super().save(*args, **kwargs)
        finally:
            self._whole_save = False
        # What the database now holds: the next full save is judged against it.
        loaded: dict[str, Any] | None = getattr(self, "_loaded", None)
        if loaded is None:
            loaded = {}
            self._loaded = loaded
        for field in self._meta.concrete_fields:
            if field.attname in self.__dict__:
                loaded[field.attname] = _copy(self.__dict__[field.attname])

    @classmethod
    def from_db(cls, db: str | None, field_names: Any, values: Any) -> Any:
        instance = super().from_db(db, field_names, values)
        instance._loaded = {
            name: _copy(value) for name, value in zip(field_names, values, strict=True)
        }
        return instance


def _copy(value: Any) -> Any:
    # A JSON field's list or dict may be changed in place: kept as it was.
    return copy.deepcopy(value) if isinstance(value, list | dict) else value
