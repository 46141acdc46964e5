"""A small asyncio pipeline: producers feed a bounded queue, workers in a
task group turn readings into reports, a slow stage meets its timeout.

Coroutines, ``await``, ``async with`` (a task group, a lock, a timeout),
``async for`` over an async generator, asynchronous comprehensions, an
async generator closed early, and cancellation.
"""

import asyncio

READINGS = {
    "north": [12, 15, 11, 19],
    "south": [22, 18, 25],
    "east": [7, 9],
}


async def sensor(name, values):
    """An async generator: one reading per step, announced when it stops."""
    try:
        for index, value in enumerate(values):
            await asyncio.sleep(0)
            yield {"sensor": name, "index": index, "value": value}
    finally:
        print(f"sensor {name} stopped")


async def producer(name, values, queue):
    async for reading in sensor(name, values):
        await queue.put(reading)
    await queue.put(None)  # this producer is done


class Totals:
    """Shared by the workers, guarded by a lock."""

    def __init__(self):
        self.lock = asyncio.Lock()
        self.by_sensor = {}

    async def add(self, reading):
        async with self.lock:
            await asyncio.sleep(0)
            key = reading["sensor"]
            self.by_sensor[key] = self.by_sensor.get(key, 0) + reading["value"]


async def worker(number, queue, totals, producers_left):
    handled = 0
    while producers_left[0]:
        reading = await queue.get()
        if reading is None:
            producers_left[0] -= 1
            continue
        await totals.add(reading)
        handled += 1
    return number, handled


async def slow_stage():
    try:
        await asyncio.sleep(10)
    except asyncio.CancelledError:
        print("slow stage cancelled")
        raise
    finally:
        print("slow stage cleaned up")


async def first_hot(threshold):
    """Stops reading at the first hot value: the generator is closed early."""
    readings = sensor("probe", [3, 8, 40, 5, 60])
    try:
        async for reading in readings:
            if reading["value"] > threshold:
                return reading
    finally:
        await readings.aclose()
    return None


async def main():
    queue = asyncio.Queue(maxsize=2)
    totals = Totals()
    producers_left = [len(READINGS)]
    async with asyncio.TaskGroup() as group:
        for name, values in READINGS.items():
            group.create_task(producer(name, values, queue))
        workers = [group.create_task(worker(n, queue, totals, producers_left)) for n in range(2)]
    handled = sum(task.result()[1] for task in workers)
    print("readings handled:", handled)
    for name in sorted(totals.by_sensor):
        print(f"  {name:6} total {totals.by_sensor[name]:4}")

    try:
        async with asyncio.timeout(0.05):
            await slow_stage()
    except TimeoutError:
        print("slow stage timed out")

    values = [r["value"] async for r in sensor("south", READINGS["south"])]
    print("south values:", values)
    doubled = [v * 2 for v in values]
    print("doubled:", doubled)
    evens = {r["index"]: r["value"] async for r in sensor("north", READINGS["north"])
             if r["value"] % 2 == 0}
    print("north even readings:", evens)

    hot = await first_hot(30)
    print("first hot reading:", hot)

    try:
        async with asyncio.TaskGroup() as group:
            group.create_task(producer("west", [1, 2], asyncio.Queue()))
            group.create_task(failing_sensor())
    except* ValueError as errors:
        print("task group failed:", [str(e) for e in errors.exceptions])


async def failing_sensor():
    await asyncio.sleep(0)
    raise ValueError("sensor west-2 unplugged")


if __name__ == "__main__":
    asyncio.run(main())
