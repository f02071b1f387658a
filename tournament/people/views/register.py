"""The register of people kept across tournaments: searching it, adding, editing and
merging people.

Who may: the installation's organisers (``permissions.may_keep_people``: granted "may
organise", a superuser, or with ``ORGANISERS=anyone`` whoever organises a tournament
here): the register is the installation's, shared by its organisers, as a guild's
members are. Others who are logged in get a 403. Writes go
through ``people.services``.

The register is shared, the tournaments are not: a person's tournaments are shown, named
and counted only where the viewer may see them (``permissions.visible_tournaments``:
published, or theirs to run or score), as a refused merge names them.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import UserError
from tournament.kernel.http import HtmxHttpRequest
from tournament.models import Person, Player
from tournament.people import services as people
from tournament.people.forms import MergeForm, PersonForm
from tournament.shared.permissions import check_people_keeper, visible_tournaments

PAGE_SIZE = 50


def _register(request: HtmxHttpRequest, form: PersonForm) -> HttpResponse:
    query = request.GET.get("q", "").strip()
    seen = visible_tournaments(request.user).values("pk")
    found = (
        people.search(query, limit=PAGE_SIZE)
        if query
        else Person.objects.annotate(
            tournaments=Count("players", filter=Q(players__tournament__in=seen))
        ).order_by("name_key", "pk")
    )
    page = Paginator(found, PAGE_SIZE).get_page(request.GET.get("page"))
    context = {"form": form, "query": query, "page": page, "total": Person.objects.count()}
    if request.htmx and request.method == "GET":
        return render(request, "people/list.html#results", context)
    return render(request, "people/list.html", context)


@login_required
@require_http_methods(["GET"])
def people_list(request: HtmxHttpRequest) -> HttpResponse:
    check_people_keeper(request)
    return _register(request, PersonForm())


@login_required
@require_POST
def person_add(request: HtmxHttpRequest) -> HttpResponse:
    check_people_keeper(request)
    form = PersonForm(request.POST)
    if form.is_valid():
        try:
            person = people.add_person(**form.cleaned_data)
        except UserError as refused:
            form.add_error("member", f"{refused}.")
        else:
            messages.success(request, f"Added {person.name} to the register.")
            return redirect("people:list")
    return _register(request, form)


@login_required
@require_http_methods(["GET", "POST"])
def person_edit(request: HtmxHttpRequest, person: int) -> HttpResponse:
    check_people_keeper(request)
    found = get_object_or_404(Person, pk=person)
    initial = {"name": found.name, "club": found.club, "member": found.member}
    form = PersonForm(request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        try:
            people.edit_person(found, **form.cleaned_data)
        except UserError as refused:
            form.add_error("member", f"{refused}.")
        else:
            messages.success(request, f"Saved {found.name}.")
            return redirect("people:edit", found.pk)
    seen = visible_tournaments(request.user).values("pk")
    played = (
        Player.objects.filter(person=found, tournament__in=seen)
        .select_related("tournament")
        .order_by("tournament__date", "tournament__slug")
    )
    # Counted, never named: a refused merge speaks of "a tournament you cannot see".
    unseen = Player.objects.filter(person=found).exclude(tournament__in=seen).count()
    context = {"person": found, "form": form, "played": played, "unseen": unseen}
    return render(request, "people/edit.html", context)


@login_required
@require_http_methods(["GET", "POST"])
def person_merge(request: HtmxHttpRequest, person: int) -> HttpResponse:
    """GET: the people this one might be (near matches, or a search); POST: merge one of
    them into this person, who is kept."""
    check_people_keeper(request)
    kept = get_object_or_404(Person, pk=person)
    form = MergeForm(request.POST or None, person=kept)
    if request.method == "POST" and form.is_valid():
        gone = form.cleaned_data["other"]
        member = form.cleaned_data["member"] or None
        try:
            people.merge(kept, gone, member=member, seen=visible_tournaments(request.user))
        except UserError as refused:
            form.add_error(None, f"Nothing was merged: {refused}.")
        else:
            messages.success(
                request, f"{gone.name} is now {kept.name}: their tournaments are {kept.name}’s."
            )
            return redirect("people:edit", kept.pk)
    query = request.GET.get("q", "").strip()
    candidates = (
        [p for p in people.search(query) if p.pk != kept.pk]
        if query
        else people.near_matches(kept.name, kept.club, exclude={kept.pk})
    )
    return render(
        request,
        "people/merge.html",
        {"person": kept, "form": form, "query": query, "candidates": candidates},
    )
