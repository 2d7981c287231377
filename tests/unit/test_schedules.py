"""driver/schedules: when each schedule is due, and that its counters survive a save/load."""

from distlbm.driver.schedules import IterationInterval, TimeInterval, WallTimeInterval, next_due


def test_iteration_interval():
    s = IterationInterval(10)
    assert [s.next_due(k) for k in (0, 9, 10, 11)] == [10, 10, 20, 20]
    assert s.due(20, 0.0) and not s.due(21, 0.0)
    assert IterationInterval(0).next_due(5) is None and not IterationInterval(0).due(0, 0.0)


def test_time_interval_fires_at_the_first_step_at_or_after_each_multiple():
    s = TimeInterval(0.25, dt=0.1)  # due at steps 3 (0.3 >= 0.25), 5, 8, 10
    fired = []
    step = 0
    while step < 11:
        step = next_due([s], step, 11)
        if s.due(step, 0.0):
            fired.append(step)
            s.fired(step, 0.0)
    assert fired == [3, 5, 8, 10]
    t = TimeInterval(0.25, dt=0.1)
    t.load(s.state())
    assert t.count == s.count == 4 and t.next_due(10) == 13


def test_wall_time_interval_and_next_due():
    w = WallTimeInterval(5.0)
    assert not w.due(1, 4.9) and w.due(1, 5.0)
    w.fired(1, 5.0)
    assert not w.due(2, 9.0) and w.due(2, 10.0)
    assert next_due([w, IterationInterval(7)], 3, 100) == 7
    assert next_due([IterationInterval(0)], 3, 100) == 100


def test_the_default_progress_comes_every_twentieth_or_at_least_every_few_minutes():
    """Every 1/20 of the run only: a week's run on a big lattice went hours between progress lines (and records,
    which `distlbm status` reads). StepsOrWall is also due once its seconds have passed since it last fired."""
    from distlbm.driver.schedules import StepsOrWall

    s = StepsOrWall(1000, 600.0)
    assert s.next_due(10) == 1000 and s.due(1000, 5.0) and not s.due(10, 5.0)
    s.fired(1000, 5.0)
    assert not s.due(1010, 604.0) and s.due(1010, 605.0)  # 600 s after it last fired, between multiples
    s.fired(1010, 605.0)
    assert not s.due(1020, 700.0) and s.due(2000, 700.0)
