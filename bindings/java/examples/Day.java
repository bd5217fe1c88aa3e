import io.carfit.Card;
import io.carfit.Core;
import io.carfit.Event;
import io.carfit.EventStream;
import io.carfit.InvalidException;
import io.carfit.VisitsImportRequest;
import io.carfit.VisitsListRequest;
import io.carfit.VisitsListResponse;
import io.carfit.VisitsSetStateRequest;

import com.google.gson.Gson;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

public class Day {
    public static void main(String[] args) throws Exception {
        String config = "{\"database\": \":memory:\", \"timeZone\": \"Europe/Copenhagen\","
                + " \"now\": \"2020-09-10T07:00:00Z\"}";
        Path data = Path.of(args.length > 0 ? args[0] : "examples/data/carfit.json");
        try (Core core = Core.open(config); EventStream events = core.events()) {
            // A visits document as it comes from the planner, read into its request record.
            core.visitsImport(new Gson().fromJson(Files.readString(data), VisitsImportRequest.class));

            VisitsListResponse list = core.visitsList(new VisitsListRequest(List.of("2020-09-10"), null, null));
            List<Card> cards = list.days().get(0).visits();
            for (Card card : cards) {
                System.out.println(card.startTime() + "  " + card.name() + "  " + card.state());
            }

            for (Card card : cards) {
                if ("Todo".equals(card.state())) {  // the washer starts the first visit not done
                    core.visitsSetState(new VisitsSetStateRequest(card.key(),
                            VisitsSetStateRequest.State.IN_PROGRESS, null));
                    break;
                }
            }
            try {
                core.visitsList(new VisitsListRequest(List.of("2020-02-30"), null, null));
            } catch (InvalidException e) {
                System.out.println(e.field() + ": " + e.getMessage());
            }

            // The change feed: what changed since the stream began.
            Event event;
            while ((event = events.next(Duration.ofMillis(200))) != null) {
                if (event instanceof Event.Changed changed) {
                    System.out.println("changed: " + changed.areas());
                }
            }
        }
    }
}
