"""Dijkstra's shortest paths over a small road map, with a hand-written binary heap."""

ROADS = """
amsterdam utrecht 45
amsterdam haarlem 20
haarlem leiden 35
leiden den_haag 20
utrecht den_haag 65
utrecht arnhem 65
den_haag rotterdam 25
rotterdam utrecht 60
rotterdam breda 50
breda eindhoven 60
arnhem eindhoven 85
utrecht eindhoven 90
groningen zwolle 105
"""


# ---------------------------------------------------------------- the heap
def heap_push(heap, item):
    heap.append(item)
    child = len(heap) - 1
    while child > 0:
        parent = (child - 1) // 2
        if heap[parent] <= heap[child]:
            break
        heap[parent], heap[child] = heap[child], heap[parent]
        child = parent


def heap_pop(heap):
    if not heap:
        raise IndexError("pop from an empty heap")
    top = heap[0]
    last = heap.pop()
    if heap:
        heap[0] = last
        parent = 0
        size = len(heap)
        while True:
            smallest = parent
            for child in (2 * parent + 1, 2 * parent + 2):
                if child < size and heap[child] < heap[smallest]:
                    smallest = child
            if smallest == parent:
                break
            heap[parent], heap[smallest] = heap[smallest], heap[parent]
            parent = smallest
    return top


# ----------------------------------------------------------------- the map
def parse_roads(text):
    graph = {}
    for line in text.strip().splitlines():
        a, b, km = line.split()
        km = int(km)
        assert km > 0, f"road {a}-{b} has no length"
        graph.setdefault(a, []).append((b, km))
        graph.setdefault(b, []).append((a, km))
    return graph


def dijkstra(graph, source):
    distance = {source: 0}
    previous = {}
    queue = [(0, source)]
    visited = set()
    pops = 0
    while queue:
        dist, town = heap_pop(queue)
        pops += 1
        if town in visited:
            continue
        visited.add(town)
        for neighbour, km in graph[town]:
            candidate = dist + km
            if candidate < distance.get(neighbour, float("inf")):
                distance[neighbour] = candidate
                previous[neighbour] = town
                heap_push(queue, (candidate, neighbour))
    return distance, previous, pops


def route(previous, source, target):
    path = [target]
    while path[-1] != source:
        try:
            path.append(previous[path[-1]])
        except KeyError:
            return None
    path.reverse()
    return path


def main():
    graph = parse_roads(ROADS)
    source = "amsterdam"
    distance, previous, pops = dijkstra(graph, source)
    print(f"from {source} ({len(graph)} towns, {pops} queue pops):")
    for town in sorted(graph, key=lambda t: (distance.get(t, float("inf")), t)):
        path = route(previous, source, town)
        if path is None:
            print(f"  {town:<10} unreachable")
            continue
        hops = len(path) - 1
        print(f"  {town:<10} {distance[town]:>4} km  {hops} hop{'s' if hops != 1 else ''}  "
              f"{' > '.join(path)}")
    heap = []
    for value in [5, 3, 8, 1, 9, 2, 7]:
        heap_push(heap, value)
    drained = []
    while heap:
        drained.append(heap_pop(heap))
    print("heap sort:", drained)
    try:
        heap_pop(heap)
    except IndexError as error:
        print("error:", error)
    del heap, drained


main()
