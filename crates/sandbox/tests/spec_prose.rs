//! The generated prose reads as correct English for any input (DESIGN.md, sandbox rules, "Spec
//! prose"): a table of inputs with their exact titles, features and some summaries, plus checks
//! every spec's sentences must pass.

mod common;
use common::*;
use serde_json::{Value, json};

struct Case {
    input: &'static str,
    title: &'static str,
    features: &'static [&'static str],
    /// The summary's opening sentences (before "This fast spec …"), when checked exactly.
    summary: Option<&'static str>,
}

const CASES: &[Case] = &[
    Case {
        input: "I want an app where dog owners can book walkers, pay in the app and rate each walk.",
        title: "Dog walker booking app",
        features: &["Book walkers", "Pay in the app", "Rate each walk"],
        summary: Some(
            "The dog walker booking app lets dog owners book walkers, pay in the app and rate each walk.",
        ),
    },
    Case {
        input: "A CRM for a small law firm. Must track cases, deadlines, billable hours; integrate with Outlook calendar.",
        title: "CRM for a small law firm",
        features: &[
            "Track cases",
            "Track deadlines",
            "Track billable hours",
            "Integrate with Outlook calendar",
        ],
        summary: Some(
            "The CRM for a small law firm lets people track cases, deadlines and billable hours. It also integrates with Outlook calendar.",
        ),
    },
    Case {
        input: "An app to scan receipts, OCR them and export to Excel.",
        title: "Receipt scanning app",
        features: &["Scan receipts", "OCR receipts", "Export to Excel"],
        summary: Some(
            "The receipt scanning app lets people scan receipts, OCR receipts and export to Excel.",
        ),
    },
    Case {
        input: "A todo app where users can sign up, create lists, share lists with friends and get reminders.",
        title: "Todo app",
        features: &[
            "Sign up",
            "Create lists",
            "Share lists with friends",
            "Get reminders",
        ],
        summary: None,
    },
    Case {
        input: "Recipe site\n- Browse recipes\n- Save favourites\n* Weekly meal plan",
        title: "Recipe site",
        features: &["Browse recipes", "Save favourites", "Weekly meal plan"],
        summary: Some(
            "The recipe site lets people browse recipes, save favourites and use the weekly meal plan.",
        ),
    },
    Case {
        input: "Can you build an app that helps students find tutors?",
        title: "Tutor finding app",
        features: &["Find tutors"],
        summary: Some("The tutor finding app lets students find tutors."),
    },
    Case {
        input: "A habit tracker that sends reminders and tracks streaks.",
        title: "Habit tracker",
        features: &["Send reminders", "Track streaks"],
        summary: Some("The habit tracker sends reminders and tracks streaks."),
    },
    Case {
        input: "Chat app",
        title: "Chat app",
        features: &["Core workflow", "Settings and preferences"],
        summary: None,
    },
    Case {
        input: "A shop where customers can pay with Stripe, built with Next.js, Django, MongoDB, Redis and Kubernetes, plus a Flutter app.",
        title: "Shop",
        features: &["Pay with Stripe"],
        summary: Some("The shop lets customers pay with Stripe."),
    },
    Case {
        input: "Une application pour réserver des promeneurs de chiens",
        title: "Une application pour réserver des promeneurs de chiens",
        features: &["Core workflow", "Settings and preferences"],
        summary: None,
    },
    Case {
        input: "Build a marketplace for vintage guitars where sellers can list guitars and buyers can make offers.",
        title: "Marketplace for vintage guitars",
        features: &["List guitars", "Make offers"],
        summary: Some(
            "The marketplace for vintage guitars lets sellers list guitars and buyers make offers.",
        ),
    },
    Case {
        input: "I want an app where I can track my runs and share them with friends.",
        title: "Run tracking app",
        features: &["Track my runs", "Share my runs with friends"],
        summary: Some(
            "The run tracking app lets you track your runs and share your runs with friends.",
        ),
    },
    Case {
        input: "Pawfect: an app that lets dog owners find walkers nearby.",
        title: "Pawfect",
        features: &["Find walkers nearby"],
        summary: Some("Pawfect lets dog owners find walkers nearby."),
    },
    Case {
        input: "A dashboard with contacts, deals, pipeline view and reports.",
        title: "Dashboard",
        features: &["Contacts", "Deals", "Pipeline view", "Reports"],
        summary: None,
    },
    Case {
        input: "We need an internal tool for HR to manage leave requests and approve timesheets. It should sync with BambooHR.",
        title: "Internal tool for HR",
        features: &[
            "Manage leave requests",
            "Approve timesheets",
            "Sync with BambooHR",
        ],
        summary: Some(
            "The internal tool for HR lets people manage leave requests and approve timesheets. It also syncs with BambooHR.",
        ),
    },
    Case {
        input: "Münchner Biergarten-Finder where people can search beer gardens, see opening hours and check the weather.",
        title: "Münchner Biergarten-Finder",
        features: &[
            "Search beer gardens",
            "See opening hours",
            "Check the weather",
        ],
        summary: Some(
            "The Münchner Biergarten-Finder lets people search beer gardens, see opening hours and check the weather.",
        ),
    },
    Case {
        input: "Create and share playlists",
        title: "Playlist sharing app",
        features: &["Create playlists", "Share playlists"],
        summary: None,
    },
    Case {
        input: "Track expenses and split bills with roommates.",
        title: "Expense tracking app",
        features: &["Track expenses", "Split bills with roommates"],
        summary: None,
    },
    Case {
        input: "A booking system for yoga studios. Students can book classes, cancel bookings and buy class passes. Teachers should be able to see their schedule.",
        title: "Booking system for yoga studios",
        features: &[
            "Book classes",
            "Cancel bookings",
            "Buy class passes",
            "See their schedule",
        ],
        summary: Some(
            "The booking system for yoga studios lets students book classes, cancel bookings, buy class passes and teachers see their schedule.",
        ),
    },
    Case {
        input: "Inventory app:\n1. Scan barcodes\n2. Track stock levels\n3. Export reports as CSV",
        title: "Inventory app",
        features: &[
            "Scan barcodes",
            "Track stock levels",
            "Export reports as CSV",
        ],
        summary: None,
    },
    Case {
        input: "An iOS app for learning Japanese kanji with flashcards, spaced repetition and daily streaks.",
        title: "iOS app for learning Japanese kanji",
        features: &["Flashcards", "Spaced repetition", "Daily streaks"],
        summary: None,
    },
    Case {
        input: "What would an Uber for lawn mowing look like?",
        title: "Uber for lawn mowing",
        features: &["Core workflow", "Settings and preferences"],
        summary: None,
    },
    Case {
        input: "A platform where freelancers can create profiles, send invoices, and get paid via PayPal or Stripe.",
        title: "Invoice sending platform",
        features: &[
            "Create profiles",
            "Send invoices",
            "Get paid via PayPal or Stripe",
        ],
        summary: None,
    },
    Case {
        input: "App",
        title: "Untitled app",
        features: &["Core workflow", "Settings and preferences"],
        summary: None,
    },
    Case {
        input: "A website for our bakery. Customers can order cakes online and pick them up in the store.",
        title: "Website for our bakery",
        features: &["Order cakes online", "Pick cakes up in the store"],
        summary: Some(
            "The website for our bakery lets customers order cakes online and pick cakes up in the store.",
        ),
    },
    Case {
        input: "Add dark mode and two-factor login to the settings page.",
        title: "Dark mode and two-factor login",
        features: &["Add dark mode", "Add two-factor login to the settings page"],
        summary: None,
    },
    Case {
        input: "A Slack bot that summarizes unread messages every morning.",
        title: "Slack bot",
        features: &["Summarize unread messages every morning"],
        summary: Some("The Slack bot summarizes unread messages every morning."),
    },
    Case {
        input: "Build an e-commerce store for handmade jewelry with product reviews, a wishlist, and gift cards.",
        title: "E-commerce store for handmade jewelry",
        features: &["Product reviews", "Wishlist", "Gift cards"],
        summary: None,
    },
    Case {
        input: "A time tracking tool for agencies; must support timers, timesheets, invoicing and QuickBooks export.",
        title: "Time tracking tool for agencies",
        features: &[
            "Support timers",
            "Support timesheets",
            "Support invoicing",
            "Support QuickBooks export",
        ],
        summary: Some(
            "The time tracking tool for agencies supports timers, timesheets, invoicing and QuickBooks export.",
        ),
    },
    Case {
        input: "A school portal where teachers post homework, parents can see grades and students submit assignments.",
        title: "School portal",
        features: &["Post homework", "See grades", "Submit assignments"],
        summary: Some(
            "The school portal lets teachers post homework, parents see grades and students submit assignments.",
        ),
    },
    Case {
        input: "Booking app for Crêperie Chez Amélie where guests can reserve tables and order crêpes ahead.",
        title: "Booking app for Crêperie Chez Amélie",
        features: &["Reserve tables", "Order crêpes ahead"],
        summary: Some(
            "The booking app for Crêperie Chez Amélie lets guests reserve tables and order crêpes ahead.",
        ),
    },
    Case {
        input: "We are a small nonprofit that runs food banks across Ohio. We want a web app where volunteers can sign up for shifts, coordinators can schedule deliveries, and donors can track their donations. It should send SMS reminders before each shift. Must work on phones.",
        title: "Delivery scheduling web app",
        features: &[
            "Sign up for shifts",
            "Schedule deliveries",
            "Track their donations",
            "Send SMS reminders before each shift",
            "Work on phones",
        ],
        summary: Some(
            "The delivery scheduling web app lets volunteers sign up for shifts, coordinators schedule deliveries and donors track their donations. It also sends SMS reminders before each shift and works on phones.",
        ),
    },
    Case {
        input: "How can I build a fitness app that tracks workouts and suggests meal plans?",
        title: "Fitness app",
        features: &["Track workouts", "Suggest meal plans"],
        summary: Some("The fitness app tracks workouts and suggests meal plans."),
    },
    Case {
        input: "Requirements:\n- Must let admins invite users\n- Should export invoices to PDF\n- Dark mode",
        title: "App for admins",
        features: &["Invite users", "Export invoices to PDF", "Dark mode"],
        summary: None,
    },
    Case {
        input: "A habit tracker that sends reminders and tracks streaks. Weekly reports too.",
        title: "Habit tracker",
        features: &["Send reminders", "Track streaks", "Weekly reports"],
        summary: Some(
            "The habit tracker lets people use the weekly reports. It also sends reminders and tracks streaks.",
        ),
    },
    Case {
        input: "A CRM",
        title: "CRM",
        features: &["Core workflow", "Settings and preferences"],
        summary: Some(
            "The CRM lets people use the core workflow and the settings and preferences.",
        ),
    },
];

fn strs(v: &Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}

/// Sentences every spec must get right, whatever the input.
fn english_problems(sentence: &str) -> Vec<String> {
    let mut out = Vec::new();
    let words: Vec<&str> = sentence.split_whitespace().collect();
    for w in words.windows(2) {
        let (a, b) = (w[0], w[1]);
        let first = b.chars().next().unwrap_or('x');
        if (a == "a" || a == "A") && "aeio".contains(first) && !b.starts_with("one") {
            out.push(format!("\"{a} {b}\" in {sentence:?}"));
        }
        if (a == "an" || a == "An") && first.is_ascii_lowercase() && !"aeiouh".contains(first) {
            out.push(format!("\"{a} {b}\" in {sentence:?}"));
        }
        if a.eq_ignore_ascii_case(b) && a.chars().all(char::is_alphabetic) {
            out.push(format!("doubled \"{a}\" in {sentence:?}"));
        }
    }
    for bad in [
        "lets people people",
        "is a new application that lets people",
        " can book",
        "to you ",
        "a end user",
        "I want to the ",
        "Lets an end user the ",
    ] {
        if sentence.contains(bad) {
            out.push(format!("\"{bad}\" in {sentence:?}"));
        }
    }
    out
}

#[tokio::test]
async fn prose_is_correct_english_for_varied_inputs() {
    assert!(CASES.len() >= 30);
    let env = Env::new().await;
    env.control(
        "/_sandbox/credits",
        json!({"key": PRO, "credits": 100_000.0}),
    )
    .await;
    let mut failures: Vec<String> = Vec::new();
    for case in CASES {
        let v = env
            .post_json("/fast-spec", Some(PRO), json!({"input": case.input}), 200)
            .await;
        let human = &v["humanSpecJson"];
        let title = human["title"].as_str().unwrap_or("");
        if title != case.title {
            failures.push(format!(
                "{:?}: title {title:?}, expected {:?}",
                case.input, case.title
            ));
        }
        assert_eq!(v["codingAgentSpecJson"]["title"], human["title"]);
        assert!(title != "App" && !title.ends_with(|c: char| c.is_ascii_punctuation()));
        let names: Vec<String> = human["coreFunctionalities"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c["name"].as_str().unwrap().to_owned())
            .collect();
        if names != case.features {
            failures.push(format!(
                "{:?}: features {names:?}, expected {:?}",
                case.input, case.features
            ));
        }
        let summary = human["executiveSummary"].as_str().unwrap();
        if let Some(lead) = case.summary {
            let got = summary.split(" This fast spec").next().unwrap_or("");
            if got != lead {
                failures.push(format!(
                    "{:?}: summary {got:?}, expected {lead:?}",
                    case.input
                ));
            }
        }
        let md = v["humanSpecMarkdown"].as_str().unwrap();
        assert!(md.starts_with(&format!("# {title}\n")), "{md}");
        assert!(md.contains(summary));
        // Every sentence the spec says about the product reads correctly.
        let mut sentences = vec![summary.to_owned()];
        for c in human["coreFunctionalities"].as_array().unwrap() {
            let d = c["description"].as_str().unwrap().to_owned();
            if !d.ends_with('.') || !d.starts_with(|c: char| c.is_uppercase()) {
                failures.push(format!("{:?}: description {d:?}", case.input));
            }
            sentences.push(d);
        }
        for m in human["milestones"].as_array().unwrap() {
            for s in m["stories"].as_array().unwrap() {
                sentences.push(s["description"].as_str().unwrap().to_owned());
                sentences.extend(strs(&s["acceptanceCriteria"]));
            }
        }
        for p in human["personas"].as_array().unwrap() {
            sentences.push(p["description"].as_str().unwrap().to_owned());
            sentences.extend(strs(&p["primaryGoals"]));
        }
        for s in &sentences {
            failures.extend(
                english_problems(s)
                    .into_iter()
                    .map(|p| format!("{:?}: {p}", case.input)),
            );
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[tokio::test]
async fn the_reported_inputs_read_well_everywhere() {
    let env = Env::new().await;
    let input = "A CRM for a small law firm. Must track cases, deadlines, billable hours; integrate with Outlook calendar.";
    let v = env
        .post_json("/deep-spec", Some(ORG), json!({"input": input}), 200)
        .await;
    let human = &v["humanSpecJson"];
    let descriptions: Vec<&str> = human["coreFunctionalities"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| c["description"].as_str().unwrap())
        .collect();
    assert_eq!(
        descriptions,
        [
            "Lets an end user track cases.",
            "Lets an end user track deadlines.",
            "Lets an end user track billable hours.",
            "The CRM integrates with Outlook calendar.",
        ]
    );
    let stories: Vec<&Value> = human["milestones"]
        .as_array()
        .unwrap()
        .iter()
        .flat_map(|m| m["stories"].as_array().unwrap())
        .collect();
    let story = stories
        .iter()
        .find(|s| s["title"] == "Track billable hours")
        .expect("a story per feature");
    assert_eq!(
        story["description"],
        "As an end user, I want to track billable hours so that I can get my work done without workarounds."
    );
    let subtasks = strs(&json!(
        story["subTasks"]
            .as_array()
            .unwrap()
            .iter()
            .map(|t| t["description"].clone())
            .collect::<Vec<_>>()
    ));
    assert!(
        subtasks.contains(&"QA: Write automated tests covering tracking billable hours".to_owned()),
        "{subtasks:?}"
    );
    // The plan's features are the spec's features.
    let md = v["codingAgentSpecMarkdown"].as_str().unwrap();
    assert!(
        md.contains(
            "- Integrate with Outlook calendar: The CRM integrates with Outlook calendar.\n"
        ),
        "{md}"
    );
    // Same input, same spec.
    let again = env
        .post_json("/deep-spec", Some(ORG), json!({"input": input}), 200)
        .await;
    assert_eq!(again["humanSpecMarkdown"], v["humanSpecMarkdown"]);
    assert_eq!(again["userFlowGraph"], v["userFlowGraph"]);
}
